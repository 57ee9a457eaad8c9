-- Branch scoping of the journal (issue 15): a transaction is visible when
-- its own branch is, or the branch of any account it posts to or proposes to
-- post to (a transfer into a branch's account is that branch's business
-- too; the whole transaction is then shown). An entry's own branch_id is the
-- transaction's (the posting engine copies the header's), so the account's
-- branch is what makes a transfer the other branch's. For one transaction
-- (get, the amends); core_transaction_search writes the same rule out so the
-- planner can hash its subqueries.
CREATE FUNCTION corebank_internal.transaction_visible(transaction_id uuid, transaction_branch uuid) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL RESTRICTED
    AS $fn$
    SELECT corebank.branch_visible(transaction_branch)
        OR EXISTS (SELECT FROM corebank.journal_entries e
                   JOIN corebank.ledger_accounts a ON a.id = e.ledger_account_id
                   WHERE e.transaction_id = transaction_visible.transaction_id
                     AND corebank.branch_visible(a.branch_id))
        OR EXISTS (SELECT FROM corebank.transaction_lines_proposed l
                   JOIN corebank.ledger_accounts a ON a.id = l.ledger_account_id
                   WHERE l.transaction_id = transaction_visible.transaction_id
                     AND corebank.branch_visible(a.branch_id))
$fn$;
