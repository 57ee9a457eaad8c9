-- 1.8: the row-level security rule of a journal transaction for psql logins
-- (docs/reporting.md): the API's rule, corebank_internal.transaction_visible
-- (its own branch, or the branch of an account it posts or proposes to post
-- to; the whole transaction is shown). SECURITY DEFINER, owned by the
-- superuser: it reads transactions, journal_entries and ledger_accounts
-- without their policies, which call it (read as the reader, the policy of
-- journal_entries would call itself).
CREATE FUNCTION corebank_internal.transaction_branch_visible(transaction uuid) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL RESTRICTED SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT EXISTS (SELECT FROM corebank.transactions t
                   WHERE t.id = transaction AND corebank_internal.transaction_visible(t.id, t.branch_id))
$fn$;
