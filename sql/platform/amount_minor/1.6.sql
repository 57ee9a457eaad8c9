-- One amount of money, in minor units: 0 to limits::amount_minor_max
-- (10^15). Every column that holds one movement or one configured amount is
-- this domain; a column that must be positive adds its own CHECK (> 0).
-- Balances and sums (ledger_accounts.balance_minor, the GL stripes, a
-- month's interest and fees, accruals) are not: they may be negative or
-- exceed one amount, stay bigint, and the posting engine checks them for
-- overflow. The CHECK calls the limit's function, so the catalog holds no
-- copy of the number; rows are written by the API functions (SECURITY
-- DEFINER), as the extension's owner, which may execute it.
CREATE DOMAIN corebank.amount_minor AS bigint
    CONSTRAINT amount_minor_range CHECK (VALUE BETWEEN 0 AND corebank_internal.limit_amount_minor_max());
