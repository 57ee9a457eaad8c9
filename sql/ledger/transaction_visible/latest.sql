-- Branch scoping of the journal (issue 15): a transaction is visible when
-- its own branch is, or the branch of any account it posts to or proposes to
-- post to (a transfer into a branch's account is that branch's business
-- too; the whole transaction is then shown). An entry's own branch_id is the
-- transaction's (the posting engine copies the header's), so the account's
-- branch is what makes a transfer the other branch's. Plain SQL, so the
-- planner inlines it into a search's WHERE: index probes per row, and none
-- while unscoped (branch_visible is then true).
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
