-- 1.8: the balance after entry `starts_after` of an account, for a book that
-- starts there: 0 for the first book (entry 0, no read), else the account's
-- balance less the entries after it (the ledger's balance is the sum of its
-- entries, ledger_check_balances). The entries after it are the new book's
-- lines, all unprinted, so the read is bounded by them, not by the history.
CREATE FUNCTION corebank_internal.passbook_opening(account uuid, starts_after bigint) RETURNS bigint
    LANGUAGE sql STABLE
    AS $fn$
    SELECT CASE WHEN starts_after = 0 THEN 0::bigint
                ELSE corebank_internal.account_balance(account)
                     - (SELECT coalesce(sum(e.signed_minor), 0)::bigint
                        FROM corebank_internal.account_entries(account) e WHERE e.entry_id > starts_after) END
$fn$;
