-- Profitability: income, not profit (docs/design/deposits.md).
CREATE OR REPLACE FUNCTION corebank.core_customers_profitability(id uuid, from_date date, to_date date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    first_day date;
    last_day date;
    sole jsonb;
    shared jsonb;
    totals jsonb;
BEGIN
    PERFORM corebank_internal.require_customer(id);
    SELECT p.first_day, p.last_day INTO first_day, last_day FROM corebank_internal.deposit_period(from_date, to_date) p;
    WITH mine AS (
        SELECT a.id FROM corebank.ledger_accounts a WHERE a.customer_id = id
    ), touched AS (
        SELECT DISTINCT e.transaction_id FROM corebank.journal_entries e
        WHERE e.ledger_account_id IN (SELECT m.id FROM mine m) AND e.value_date BETWEEN first_day AND last_day
    ), classified AS (
        SELECT t.id,
               NOT EXISTS (SELECT FROM corebank.journal_entries e2
                           JOIN corebank.ledger_accounts a2 ON a2.id = e2.ledger_account_id
                           WHERE e2.transaction_id = t.id AND a2.customer_id IS NOT NULL
                             AND a2.customer_id <> id) AS is_sole
        FROM corebank.transactions t JOIN touched x ON x.transaction_id = t.id
        -- Actually posted: not reversed, and not a reversal.
        WHERE t.status = 'POSTED' AND t.reverses_id IS NULL
    ), revenue AS (
        SELECT k.is_sole, g.code, g.name, e.currency::text AS currency,
               sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE -e.amount_minor END)::bigint AS revenue_minor,
               count(DISTINCT e.transaction_id) AS transaction_count
        FROM classified k
        JOIN corebank.journal_entries e ON e.transaction_id = k.id
        JOIN corebank.gl_accounts g ON g.id = e.gl_account_id
        WHERE g.type = 'INCOME'
        GROUP BY k.is_sole, g.code, g.name, e.currency
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object('glAccountCode', r.code, 'glAccountName', r.name, 'currency', r.currency,
                                                 'revenueMinor', r.revenue_minor,
                                                 'revenue', corebank_internal.money_text(r.revenue_minor, r.currency),
                                                 'transactionCount', r.transaction_count)
                              ORDER BY r.currency, r.code) FILTER (WHERE r.is_sole), '[]'::jsonb),
           coalesce(jsonb_agg(jsonb_build_object('glAccountCode', r.code, 'glAccountName', r.name, 'currency', r.currency,
                                                 'revenueMinor', r.revenue_minor,
                                                 'revenue', corebank_internal.money_text(r.revenue_minor, r.currency),
                                                 'transactionCount', r.transaction_count)
                              ORDER BY r.currency, r.code) FILTER (WHERE NOT r.is_sole), '[]'::jsonb),
           (SELECT coalesce(jsonb_agg(jsonb_build_object('currency', s.currency, 'soleMinor', s.sole_minor,
                                                         'sharedMinor', s.shared_minor) ORDER BY s.currency), '[]'::jsonb)
            FROM (SELECT r2.currency,
                         coalesce(sum(r2.revenue_minor) FILTER (WHERE r2.is_sole), 0)::bigint AS sole_minor,
                         coalesce(sum(r2.revenue_minor) FILTER (WHERE NOT r2.is_sole), 0)::bigint AS shared_minor
                  FROM revenue r2 GROUP BY r2.currency) s)
    INTO sole, shared, totals
    FROM revenue r;
    RETURN jsonb_build_object('customerId', id, 'from', first_day, 'to', last_day, 'basis', 'INCOME',
                              'sole', sole, 'shared', shared, 'totals', totals);
END
$fn$;
