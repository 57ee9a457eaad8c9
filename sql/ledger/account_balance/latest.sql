-- 1.8: a customer account's balance (credits raise it): balance_minor plus
-- the credits in stripes not yet folded into it (a hot account's credits,
-- docs/design/posting-engine.md section 3). Every reader of a balance reads
-- this; NULL for an unknown account. A caller that holds the account's row
-- lock reads it in a statement after the lock (then no fold can be half
-- seen).
CREATE FUNCTION corebank_internal.account_balance(account uuid) RETURNS bigint
    LANGUAGE sql STABLE
    AS $fn$
    SELECT a.balance_minor + coalesce((SELECT sum(s.credit_minor) FROM corebank.account_credit_stripes s
                                       WHERE s.account_id = a.id), 0)::bigint
    FROM corebank.ledger_accounts a WHERE a.id = account
$fn$;
