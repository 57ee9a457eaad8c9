-- A passbook with its balances, all from the ledger expression. 1.8: bounded
-- by the book's unprinted lines, not the account's history (issue 12 part
-- 4): the opening balance and the printed line count are the book's stored
-- mark (passbook_mark, corebank.passbook_marks); the closing balance (the balance after the
-- last printed line) is the account's balance less the unprinted lines, which
-- equals the sum of the entries up to the mark (the ledger's balance is the
-- sum of its entries, ledger_check_balances) and so includes, as before 1.8,
-- a posting that committed after the confirmation with an id below the mark.
CREATE OR REPLACE FUNCTION corebank_internal.passbook_json(passbook uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    p corebank.passbooks;
    a corebank.ledger_accounts;
    opening bigint;
    printed_lines bigint;
    ledger bigint;
    unprinted_net bigint;
    unprinted_lines bigint;
BEGIN
    SELECT * INTO p FROM corebank.passbooks x WHERE x.id = passbook;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    SELECT * INTO a FROM corebank.ledger_accounts x WHERE x.id = p.account_id;
    SELECT m.opening_balance_minor, m.line_count INTO opening, printed_lines FROM corebank_internal.passbook_mark(p) m;
    SELECT coalesce(sum(e.signed_minor), 0), count(*) INTO unprinted_net, unprinted_lines
    FROM corebank_internal.account_entries(p.account_id) e
    WHERE e.entry_id > greatest(p.starts_after_entry_id, coalesce(p.printed_through_entry_id, 0));
    ledger := corebank_internal.account_balance(a.id);
    RETURN jsonb_build_object(
        'id', p.id, 'accountId', p.account_id, 'accountNumber', a.account_number, 'currency', a.currency,
        'bookNumber', p.book_number, 'status', p.status, 'replacesId', p.replaces_id,
        'issuedAt', corebank_internal.iso_utc(p.issued_at), 'issuedBy', p.issued_by,
        'startsAfterEntryId', p.starts_after_entry_id, 'printedThroughEntryId', p.printed_through_entry_id,
        'printedLineCount', printed_lines, 'unprintedLineCount', unprinted_lines,
        'openingBalanceCents', opening, 'openingBalance', corebank_internal.money_text(opening, a.currency),
        'closingBalanceCents', ledger - unprinted_net,
        'closingBalance', corebank_internal.money_text(ledger - unprinted_net, a.currency),
        'ledgerBalanceCents', ledger, 'ledgerBalance', corebank_internal.money_text(ledger, a.currency),
        'lostAt', corebank_internal.iso_utc(p.lost_at), 'lostReason', p.lost_reason,
        'closedAt', corebank_internal.iso_utc(p.closed_at));
END
$fn$;
