-- 1.8: a book's figures at its mark (how far it is printed: printed_through_entry_id,
-- or its start while nothing is printed) from corebank.passbook_marks, so that no read
-- sums the account's history (issue 12 part 4): the balance after its start
-- (opening_balance_minor), the count of its lines up to the mark (line_count) and the
-- balance after them as the book shows it (balance_minor, opening + those lines). The
-- newest mark at or before the book's mark is one index probe; lines between the two
-- are added, which is none unless printed_through_entry_id was moved by direct SQL. A
-- book with no mark (inserted by direct SQL) opens at the account's balance less the
-- entries after its start: its lines, all of them unprinted.
CREATE FUNCTION corebank_internal.passbook_mark(book corebank.passbooks, OUT opening_balance_minor bigint,
                                                OUT line_count bigint, OUT balance_minor bigint)
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    mark_to bigint := greatest(book.starts_after_entry_id, coalesce(book.printed_through_entry_id, 0));
    stored_through bigint;
    added_lines bigint;
    added_net bigint;
BEGIN
    SELECT m.balance_minor INTO opening_balance_minor
    FROM corebank.passbook_marks m
    WHERE m.passbook_id = book.id AND m.through_entry_id = book.starts_after_entry_id;
    IF NOT FOUND THEN
        opening_balance_minor := corebank_internal.passbook_opening(book.account_id, book.starts_after_entry_id);
        stored_through := book.starts_after_entry_id;
        line_count := 0;
        balance_minor := opening_balance_minor;
    ELSE
        SELECT m.through_entry_id, m.line_count, m.balance_minor INTO stored_through, line_count, balance_minor
        FROM corebank.passbook_marks m
        WHERE m.passbook_id = book.id AND m.through_entry_id <= mark_to
        ORDER BY m.through_entry_id DESC LIMIT 1;
    END IF;
    IF stored_through < mark_to THEN
        SELECT count(*), coalesce(sum(e.signed_minor), 0) INTO added_lines, added_net
        FROM corebank_internal.account_entries(book.account_id) e
        WHERE e.entry_id > stored_through AND e.entry_id <= mark_to;
        line_count := line_count + added_lines;
        balance_minor := balance_minor + added_net;
    END IF;
END
$fn$;
