-- The lines not printed yet, with the balance before the first of them and
-- after the last: opening + lines = closing. 1.8: reads the unprinted lines
-- only (issue 12 part 4): the lines before them are the count stored at the
-- book's mark (passbook_mark), and the opening is the account's balance
-- less the unprinted lines, the sum of the entries up to the mark as before.
-- Branch scoping (issue 15): a passbook of an account of a branch the
-- transaction cannot see is not found.
CREATE OR REPLACE FUNCTION corebank.core_passbook_unprinted(id uuid, max_lines int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.passbooks;
    a corebank.ledger_accounts;
    line_limit int := coalesce(max_lines, 100);
    printed_to bigint;
    opening bigint;
    before_count bigint;
    lines jsonb;
    closing bigint;
    remaining bigint;
BEGIN
    IF line_limit NOT BETWEEN 1 AND 500 THEN
        PERFORM corebank_internal.fail('CBV00', 'limit: must be from 1 to 500');
    END IF;
    SELECT x.* INTO b FROM corebank.passbooks x JOIN corebank.ledger_accounts y ON y.id = x.account_id
    WHERE x.id = id AND corebank.branch_visible(y.branch_id);
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Passbook not found');
    END IF;
    SELECT * INTO a FROM corebank.ledger_accounts x WHERE x.id = b.account_id;
    printed_to := greatest(b.starts_after_entry_id, coalesce(b.printed_through_entry_id, 0));
    SELECT m.line_count INTO before_count FROM corebank_internal.passbook_mark(b) m;
    SELECT corebank_internal.account_balance(a.id) - coalesce(sum(e.signed_minor), 0)::bigint, count(*)
    INTO opening, remaining
    FROM corebank_internal.account_entries(b.account_id) e
    WHERE e.entry_id > printed_to;
    WITH page AS (
        SELECT e.*, row_number() OVER (ORDER BY e.entry_id) AS n,
               opening + sum(e.signed_minor) OVER (ORDER BY e.entry_id) AS running
        FROM corebank_internal.account_entries(b.account_id) e
        WHERE e.entry_id > printed_to
        ORDER BY e.entry_id LIMIT line_limit
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'lineNo', before_count + p.n, 'entryId', p.entry_id, 'transactionId', p.transaction_id,
               'reference', t.reference, 'type', t.type, 'valueDate', p.value_date,
               'postedAt', corebank_internal.iso_utc(t.posted_at), 'narrative', coalesce(p.narrative, t.description),
               'debitCents', CASE WHEN p.side = 'D' THEN p.amount_minor END,
               'creditCents', CASE WHEN p.side = 'C' THEN p.amount_minor END,
               'balanceCents', p.running, 'balance', corebank_internal.money_text(p.running::bigint, a.currency))
               ORDER BY p.entry_id), '[]'::jsonb),
           opening + coalesce(sum(p.signed_minor), 0)
    INTO lines, closing
    FROM page p JOIN corebank.transactions t ON t.id = p.transaction_id;
    RETURN jsonb_build_object(
        'passbookId', b.id, 'accountId', a.id, 'accountNumber', a.account_number, 'currency', a.currency,
        'bookNumber', b.book_number, 'status', b.status,
        'openingBalanceCents', opening, 'openingBalance', corebank_internal.money_text(opening, a.currency),
        'closingBalanceCents', closing, 'closingBalance', corebank_internal.money_text(closing, a.currency),
        'lines', lines, 'more', remaining > jsonb_array_length(lines));
END
$fn$;
