-- 1.8: for the row-level security of the journal (docs/reporting.md): the
-- transactions that post, or propose to post, to an account of a branch the
-- reader may see. With the transaction's own branch (which its entries
-- carry), this is the API's rule, corebank_internal.transaction_visible, in
-- set form: a policy asks `id IN (SELECT ...)`, which PostgreSQL evaluates
-- once per query as a hashed set (only when a row's own branch is not
-- visible), where the rule per row cost about 0.2 ms for each row of another
-- branch. SECURITY DEFINER, owned by the superuser: it reads the journal
-- without its policies, which call it (read as the reader, the policy of
-- journal_entries would call itself).
CREATE FUNCTION corebank_internal.transactions_touching_visible_accounts() RETURNS SETOF uuid
    LANGUAGE sql STABLE PARALLEL RESTRICTED SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT e.transaction_id
    FROM corebank.ledger_accounts a JOIN corebank.journal_entries e ON e.ledger_account_id = a.id
    WHERE corebank.branch_visible(a.branch_id)
    UNION
    SELECT l.transaction_id
    FROM corebank.ledger_accounts a JOIN corebank.transaction_lines_proposed l ON l.ledger_account_id = a.id
    WHERE corebank.branch_visible(a.branch_id)
$fn$;
