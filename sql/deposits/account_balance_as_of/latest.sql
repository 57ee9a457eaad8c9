-- An account's balance at the end of a value date (credits raise it): the
-- current balance minus the net of the stored day totals after that date
-- (1.8, docs/design/posting-engine.md section 4), so its cost is the number
-- of days with postings after the date, not the number of entries. Equal to
-- the sum of the account's entries up to the date (ledger_check_balances
-- proves both the balance and the totals from the journal; the current
-- balance includes the credit stripes, 1.8): 0 before the
-- account's first posting, for an unknown account and for a NULL date.
CREATE OR REPLACE FUNCTION corebank_internal.account_balance_as_of(account uuid, as_of date) RETURNS bigint
    LANGUAGE sql STABLE
    AS $fn$
    SELECT coalesce((SELECT corebank_internal.account_balance(a.id)
                            - coalesce((SELECT sum(t.credit_minor - t.debit_minor) FROM corebank.account_day_totals t
                                        WHERE t.account_id = a.id AND t.day > as_of), 0)
                     FROM corebank.ledger_accounts a
                     WHERE a.id = account AND as_of IS NOT NULL), 0)::bigint
$fn$;
