-- Filter: from, to (value dates), type, status, state (same values as
-- status), reference (exact), glAccountCode, page (0-based), size (1 to
-- limit_page_size_max(), default limit_page_size_default()). Newest first (created_at desc, id).
-- 1.8: a scoped reader's search leaves other branches' transactions out, and
-- its total counts only the visible ones (issue 15, branch scoping).
CREATE OR REPLACE FUNCTION corebank.core_transaction_search(filter jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    f jsonb := corebank_internal.require_object(coalesce(filter, '{}'::jsonb), 'filter');
    from_date date;
    to_date date;
    type_filter text;
    status_filter text;
    state_filter text;
    reference_filter text;
    gl_code text;
    bounds int[];
    total bigint;
    content jsonb;
BEGIN
    from_date := corebank_internal.json_date(f, 'from');
    to_date := corebank_internal.json_date(f, 'to');
    type_filter := upper(corebank_internal.json_text(f, 'type', 32));
    status_filter := upper(corebank_internal.json_text(f, 'status', 16));
    state_filter := upper(corebank_internal.json_text(f, 'state', 16));
    reference_filter := corebank_internal.json_text(f, 'reference', 80);
    gl_code := corebank_internal.json_text(f, 'glAccountCode', 20);
    bounds := corebank_internal.json_page_bounds(f);
    IF type_filter NOT IN ('DEPOSIT', 'WITHDRAWAL', 'TRANSFER', 'INTEREST_ACCRUAL', 'FEE', 'LOAN_DISBURSEMENT',
                           'LOAN_REPAYMENT', 'ADJUSTMENT', 'ZIPIT_SEND', 'ZIPIT_RECEIVE', 'RTGS_SEND',
                           'RTGS_RECEIVE', 'MOBILE_MONEY_SEND', 'MOBILE_MONEY_RECEIVE', 'SALARY_PAYMENT',
                           'BULK_PAYMENT', 'BILL_PAYMENT', 'PAYMENT_REVERSAL', 'INVESTMENT_PURCHASE',
                           'INVESTMENT_MATURITY', 'INVESTMENT_SALE', 'INVESTMENT_INTEREST') THEN
        PERFORM corebank_internal.fail('CBV00', 'type: is not a known transaction type');
    END IF;
    IF status_filter NOT IN ('PENDING', 'POSTED', 'REVERSED', 'CANCELLED')
       OR state_filter NOT IN ('PENDING', 'POSTED', 'REVERSED', 'CANCELLED') THEN
        PERFORM corebank_internal.fail('CBV00', 'status: must be PENDING, POSTED, REVERSED or CANCELLED');
    END IF;
    IF status_filter IS NOT NULL AND state_filter IS NOT NULL AND status_filter <> state_filter THEN
        PERFORM corebank_internal.fail('CBV00', 'state: must equal status when both are given');
    END IF;
    status_filter := coalesce(status_filter, state_filter);
    IF from_date > to_date THEN
        PERFORM corebank_internal.fail('CBV00', 'to: must be on or after from');
    END IF;

    -- One pass: the hits are materialised once for the count and the page.
    WITH hits AS MATERIALIZED (
        SELECT t.id, t.created_at
        FROM corebank.transactions t
        WHERE (from_date IS NULL OR t.value_date >= from_date)
          AND (to_date IS NULL OR t.value_date <= to_date)
          AND (type_filter IS NULL OR t.type = type_filter)
          AND (status_filter IS NULL OR t.status = status_filter)
          AND (reference_filter IS NULL OR t.reference = reference_filter)
          -- corebank_internal.transaction_visible's rule, written out: a
          -- function holding subqueries is not inlined, and called per row it
          -- cost 48 us a row (6,000 rows: 290 ms against 18 ms here, where the
          -- planner hashes each subquery once; unscoped, neither runs).
          AND (corebank.branch_visible(t.branch_id)
               OR EXISTS (SELECT FROM corebank.journal_entries e
                          JOIN corebank.ledger_accounts a ON a.id = e.ledger_account_id
                          WHERE e.transaction_id = t.id AND corebank.branch_visible(a.branch_id))
               OR EXISTS (SELECT FROM corebank.transaction_lines_proposed l
                          JOIN corebank.ledger_accounts a ON a.id = l.ledger_account_id
                          WHERE l.transaction_id = t.id AND corebank.branch_visible(a.branch_id)))
          AND (gl_code IS NULL
               OR EXISTS (SELECT FROM corebank.journal_entries e
                          JOIN corebank.gl_accounts g ON g.id = e.gl_account_id
                          WHERE e.transaction_id = t.id AND g.code = gl_code)
               OR EXISTS (SELECT FROM corebank.transaction_lines_proposed p
                          JOIN corebank.gl_accounts g ON g.id = p.gl_account_id
                          WHERE p.transaction_id = t.id AND g.code = gl_code))
    ), page AS (
        SELECT h.id, h.created_at FROM hits h
        ORDER BY h.created_at DESC, h.id
        LIMIT bounds[2] OFFSET bounds[1]::bigint * bounds[2]
    )
    SELECT (SELECT count(*) FROM hits),
           (SELECT jsonb_agg(corebank_internal.transaction_json(p.id) ORDER BY p.created_at DESC, p.id) FROM page p)
    INTO total, content;
    RETURN corebank_internal.page_json(content, bounds[1], bounds[2], total);
END
$fn$;
