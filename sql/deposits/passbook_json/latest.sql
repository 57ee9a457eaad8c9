-- A passbook with its balances, all from the ledger expression.
CREATE OR REPLACE FUNCTION corebank_internal.passbook_json(passbook uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    p corebank.passbooks;
    a corebank.ledger_accounts;
    opening bigint;
    printed bigint;
    printed_lines bigint;
    unprinted_lines bigint;
BEGIN
    SELECT * INTO p FROM corebank.passbooks x WHERE x.id = passbook;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    SELECT * INTO a FROM corebank.ledger_accounts x WHERE x.id = p.account_id;
    SELECT coalesce(sum(e.signed_minor) FILTER (WHERE e.entry_id <= p.starts_after_entry_id), 0),
           coalesce(sum(e.signed_minor) FILTER (WHERE e.entry_id > p.starts_after_entry_id
                                                  AND e.entry_id <= coalesce(p.printed_through_entry_id, 0)), 0),
           count(*) FILTER (WHERE e.entry_id > p.starts_after_entry_id
                              AND e.entry_id <= coalesce(p.printed_through_entry_id, 0)),
           count(*) FILTER (WHERE e.entry_id > greatest(p.starts_after_entry_id, coalesce(p.printed_through_entry_id, 0)))
    INTO opening, printed, printed_lines, unprinted_lines
    FROM corebank_internal.account_entries(p.account_id) e;
    RETURN jsonb_build_object(
        'id', p.id, 'accountId', p.account_id, 'accountNumber', a.account_number, 'currency', a.currency,
        'bookNumber', p.book_number, 'status', p.status, 'replacesId', p.replaces_id,
        'issuedAt', corebank_internal.iso_utc(p.issued_at), 'issuedBy', p.issued_by,
        'startsAfterEntryId', p.starts_after_entry_id, 'printedThroughEntryId', p.printed_through_entry_id,
        'printedLineCount', printed_lines, 'unprintedLineCount', unprinted_lines,
        'openingBalanceCents', opening, 'openingBalance', corebank_internal.money_text(opening, a.currency),
        'closingBalanceCents', opening + printed,
        'closingBalance', corebank_internal.money_text(opening + printed, a.currency),
        'ledgerBalanceCents', corebank_internal.account_balance(a.id),
        'ledgerBalance', corebank_internal.money_text(corebank_internal.account_balance(a.id), a.currency),
        'lostAt', corebank_internal.iso_utc(p.lost_at), 'lostReason', p.lost_reason,
        'closedAt', corebank_internal.iso_utc(p.closed_at));
END
$fn$;
