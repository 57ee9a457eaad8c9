-- 1.8: the new book's first mark (corebank.passbook_marks) holds its opening
-- balance, read once here: 0 for a first book, else bounded by its lines.
-- Branch scoping (issue 15): an account of a branch the transaction cannot
-- see is not found (deposit_account_row serves the postings: it stays unscoped).
CREATE OR REPLACE FUNCTION corebank.core_passbook_issue(account_id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    a record;
    previous corebank.passbooks;
    live int;
    new_id uuid;
    starts_after bigint;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    SELECT * INTO a FROM corebank_internal.deposit_account_row(account_id, 'accountId', true);
    IF NOT corebank.branch_visible(a.branch_id) THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    IF a.status = 'CLOSED' THEN
        PERFORM corebank_internal.fail('CB422', 'The account is CLOSED');
    END IF;
    SELECT b.book_number INTO live FROM corebank.passbooks b WHERE b.account_id = account_id AND b.status = 'ACTIVE';
    IF FOUND THEN
        PERFORM corebank_internal.fail('CB409', format('The account already has a live passbook (book %s)', live));
    END IF;
    SELECT * INTO previous FROM corebank.passbooks b WHERE b.account_id = account_id
    ORDER BY b.book_number DESC LIMIT 1;
    -- A new book continues where the last one's printing ended.
    INSERT INTO corebank.passbooks AS b (account_id, book_number, starts_after_entry_id, issued_by)
    VALUES (account_id, coalesce(previous.book_number, 0) + 1,
            coalesce(previous.printed_through_entry_id, previous.starts_after_entry_id, 0), actor)
    RETURNING b.id, b.starts_after_entry_id INTO new_id, starts_after;
    INSERT INTO corebank.passbook_marks (passbook_id, through_entry_id, line_count, balance_minor, marked_by)
    VALUES (new_id, starts_after, 0, corebank_internal.passbook_opening(account_id, starts_after), actor);
    RETURN corebank_internal.passbook_json(new_id);
END
$fn$;
