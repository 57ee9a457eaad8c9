CREATE FUNCTION corebank_internal.transaction_json(transaction_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    t corebank.transactions;
    lines jsonb;
    totals jsonb;
    approval_status text;
    branch_code text;
BEGIN
    SELECT * INTO t FROM corebank.transactions x WHERE x.id = transaction_json.transaction_id;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    SELECT corebank_internal.change_status(p.status, p.expires_at) INTO approval_status
    FROM corebank.parked_changes p WHERE p.id = t.parked_change_id;
    SELECT b.code INTO branch_code FROM corebank.branches b WHERE b.id = t.branch_id;

    WITH l AS (
        SELECT e.line_no, e.gl_account_id, e.ledger_account_id, e.currency, e.side, e.amount_minor, e.narrative
        FROM corebank.journal_entries e
        WHERE e.transaction_id = t.id AND t.status IN ('POSTED', 'REVERSED')
        UNION ALL
        SELECT p.line_no, p.gl_account_id, p.ledger_account_id, p.currency, p.side, p.amount_minor, p.narrative
        FROM corebank.transaction_lines_proposed p
        WHERE p.transaction_id = t.id AND t.status IN ('PENDING', 'CANCELLED')
    ), rendered AS (
        SELECT l.*, c.minor_units, g.code AS gl_code, g.name AS gl_name, a.account_number
        FROM l
        JOIN corebank.currencies c ON c.code = l.currency
        JOIN corebank.gl_accounts g ON g.id = l.gl_account_id
        LEFT JOIN corebank.ledger_accounts a ON a.id = l.ledger_account_id
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'lineNo', r.line_no, 'glAccountId', r.gl_account_id, 'glAccountCode', r.gl_code,
               'glAccountName', r.gl_name, 'accountId', r.ledger_account_id, 'accountNumber', r.account_number,
               'currency', r.currency, 'side', CASE r.side WHEN 'D' THEN 'DEBIT' ELSE 'CREDIT' END,
               'amountMinor', r.amount_minor, 'amount', corebank_internal.amount_text(r.amount_minor, r.minor_units),
               'narrative', r.narrative) ORDER BY r.line_no), '[]'::jsonb),
           (SELECT coalesce(jsonb_agg(jsonb_build_object(
                       'currency', s.currency, 'debitMinor', s.debit_minor, 'creditMinor', s.credit_minor,
                       'debit', corebank_internal.amount_text(s.debit_minor, s.minor_units),
                       'credit', corebank_internal.amount_text(s.credit_minor, s.minor_units)) ORDER BY s.currency),
                   '[]'::jsonb)
            FROM (SELECT r2.currency, r2.minor_units,
                         sum(CASE WHEN r2.side = 'D' THEN r2.amount_minor ELSE 0 END)::bigint AS debit_minor,
                         sum(CASE WHEN r2.side = 'C' THEN r2.amount_minor ELSE 0 END)::bigint AS credit_minor
                  FROM rendered r2 GROUP BY r2.currency, r2.minor_units) s)
    INTO lines, totals
    FROM rendered r;

    RETURN jsonb_build_object(
        'id', t.id, 'reference', t.reference, 'type', t.type, 'status', t.status, 'state', t.status,
        'description', t.description, 'valueDate', t.value_date, 'branchId', t.branch_id,
        'branchCode', branch_code, 'channel', t.channel, 'makerId', t.maker_id, 'operatorId', t.operator_id,
        'idempotencyKey', t.idempotency_key, 'reversesId', t.reverses_id, 'reversedById', t.reversed_by_id,
        'parkedChangeId', t.parked_change_id, 'approvalStatus', approval_status, 'released', t.released,
        -- A single-currency transaction has one amount: its debits (= its credits).
        'currency', CASE WHEN jsonb_array_length(totals) = 1 THEN totals -> 0 ->> 'currency' END,
        'amountMinor', CASE WHEN jsonb_array_length(totals) = 1 THEN totals -> 0 -> 'debitMinor' END,
        'amount', CASE WHEN jsonb_array_length(totals) = 1 THEN totals -> 0 -> 'debit' END,
        'totals', totals, 'entries', lines,
        -- The hash-chain link (hex SHA-256), and where it sits.
        'hash', encode(t.hash, 'hex'),
        'chain', CASE WHEN t.hash IS NOT NULL THEN jsonb_build_object('stripe', t.chain_stripe, 'seq', t.chain_seq) END,
        'createdAt', corebank_internal.iso_utc(t.created_at), 'postedAt', corebank_internal.iso_utc(t.posted_at));
END
$fn$;
