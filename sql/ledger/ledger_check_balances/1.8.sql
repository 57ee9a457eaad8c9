-- Health of the balances; no rows = healthy:
--   ledger_account   a customer balance (with its credit stripes, 1.8) differs
--                    from its entries (credits - debits)
--   gl_debits/credits a GL account's stripes differ from its entries
--   trial_balance    debits and credits of a currency differ
--   account_day_debits/credits  an account's stored totals of a day (all
--                    stripes) differ from its entries of that value date
--   gl_day_debits/credits       the same for a GL account's day totals
--   unchained        a posted transaction has no entries, or entries belong
--                    to a transaction that is not posted
CREATE OR REPLACE FUNCTION corebank.ledger_check_balances()
    RETURNS TABLE (problem text, subject text, currency text, expected_minor bigint, actual_minor bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN QUERY
    SELECT 'ledger_account'::text, a.account_number, a.currency::text, coalesce(e.net, 0)::bigint, b.balance
    FROM corebank.ledger_accounts a
    CROSS JOIN LATERAL (SELECT corebank_internal.account_balance(a.id) AS balance) b
    LEFT JOIN (SELECT x.ledger_account_id,
                      sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE -x.amount_minor END) AS net
               FROM corebank.journal_entries x WHERE x.ledger_account_id IS NOT NULL
               GROUP BY x.ledger_account_id) e ON e.ledger_account_id = a.id
    WHERE b.balance <> coalesce(e.net, 0);

    RETURN QUERY
    WITH entries AS (
        SELECT x.gl_account_id,
               sum(CASE WHEN x.side = 'D' THEN x.amount_minor ELSE 0 END) AS debit,
               sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE 0 END) AS credit
        FROM corebank.journal_entries x GROUP BY x.gl_account_id
    ), stripes AS (
        SELECT s.gl_account_id, sum(s.debit_minor) AS debit, sum(s.credit_minor) AS credit
        FROM corebank.gl_balance_stripes s GROUP BY s.gl_account_id
    ), both_sides AS (
        SELECT g.code || ' ' || g.currency AS subject, g.currency::text AS currency,
               coalesce(e.debit, 0)::bigint AS entries_debit, coalesce(s.debit, 0)::bigint AS stripes_debit,
               coalesce(e.credit, 0)::bigint AS entries_credit, coalesce(s.credit, 0)::bigint AS stripes_credit
        FROM corebank.gl_accounts g
        LEFT JOIN entries e ON e.gl_account_id = g.id
        LEFT JOIN stripes s ON s.gl_account_id = g.id
    )
    SELECT 'gl_debits'::text, b.subject, b.currency, b.entries_debit, b.stripes_debit
    FROM both_sides b WHERE b.entries_debit <> b.stripes_debit
    UNION ALL
    SELECT 'gl_credits'::text, b.subject, b.currency, b.entries_credit, b.stripes_credit
    FROM both_sides b WHERE b.entries_credit <> b.stripes_credit;

    RETURN QUERY
    WITH entries AS (
        SELECT x.ledger_account_id AS account_id, x.value_date AS day,
               sum(CASE WHEN x.side = 'D' THEN x.amount_minor ELSE 0 END) AS debit,
               sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE 0 END) AS credit
        FROM corebank.journal_entries x WHERE x.ledger_account_id IS NOT NULL
        GROUP BY x.ledger_account_id, x.value_date
    ), totals AS (
        SELECT d.account_id, d.day, sum(d.debit_minor) AS debit, sum(d.credit_minor) AS credit
        FROM corebank.account_day_totals d GROUP BY d.account_id, d.day
    ), both_sides AS (
        SELECT coalesce(e.account_id, t.account_id) AS account_id, coalesce(e.day, t.day) AS day,
               coalesce(e.debit, 0)::bigint AS entries_debit, coalesce(t.debit, 0)::bigint AS totals_debit,
               coalesce(e.credit, 0)::bigint AS entries_credit, coalesce(t.credit, 0)::bigint AS totals_credit
        FROM entries e FULL JOIN totals t ON t.account_id = e.account_id AND t.day = e.day
    ), differing AS (
        SELECT a.account_number || ' ' || b.day::text AS subject, a.currency::text AS currency, b.*
        FROM both_sides b JOIN corebank.ledger_accounts a ON a.id = b.account_id
        WHERE b.entries_debit <> b.totals_debit OR b.entries_credit <> b.totals_credit
    )
    SELECT 'account_day_debits'::text, d.subject, d.currency, d.entries_debit, d.totals_debit
    FROM differing d WHERE d.entries_debit <> d.totals_debit
    UNION ALL
    SELECT 'account_day_credits'::text, d.subject, d.currency, d.entries_credit, d.totals_credit
    FROM differing d WHERE d.entries_credit <> d.totals_credit;

    RETURN QUERY
    WITH entries AS (
        SELECT x.gl_account_id, x.value_date AS day,
               sum(CASE WHEN x.side = 'D' THEN x.amount_minor ELSE 0 END) AS debit,
               sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE 0 END) AS credit
        FROM corebank.journal_entries x GROUP BY x.gl_account_id, x.value_date
    ), totals AS (
        SELECT d.gl_account_id, d.day, sum(d.debit_minor) AS debit, sum(d.credit_minor) AS credit
        FROM corebank.gl_day_totals d GROUP BY d.gl_account_id, d.day
    ), both_sides AS (
        SELECT coalesce(e.gl_account_id, t.gl_account_id) AS gl_account_id, coalesce(e.day, t.day) AS day,
               coalesce(e.debit, 0)::bigint AS entries_debit, coalesce(t.debit, 0)::bigint AS totals_debit,
               coalesce(e.credit, 0)::bigint AS entries_credit, coalesce(t.credit, 0)::bigint AS totals_credit
        FROM entries e FULL JOIN totals t ON t.gl_account_id = e.gl_account_id AND t.day = e.day
    ), differing AS (
        SELECT g.code || ' ' || g.currency || ' ' || b.day::text AS subject, g.currency::text AS currency, b.*
        FROM both_sides b JOIN corebank.gl_accounts g ON g.id = b.gl_account_id
        WHERE b.entries_debit <> b.totals_debit OR b.entries_credit <> b.totals_credit
    )
    SELECT 'gl_day_debits'::text, d.subject, d.currency, d.entries_debit, d.totals_debit
    FROM differing d WHERE d.entries_debit <> d.totals_debit
    UNION ALL
    SELECT 'gl_day_credits'::text, d.subject, d.currency, d.entries_credit, d.totals_credit
    FROM differing d WHERE d.entries_credit <> d.totals_credit;

    RETURN QUERY
    SELECT 'trial_balance'::text, 'all GL accounts'::text, x.currency::text,
           sum(CASE WHEN x.side = 'D' THEN x.amount_minor ELSE 0 END)::bigint,
           sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE 0 END)::bigint
    FROM corebank.journal_entries x
    GROUP BY x.currency
    HAVING sum(CASE WHEN x.side = 'D' THEN x.amount_minor ELSE -x.amount_minor END) <> 0;

    RETURN QUERY
    SELECT 'unchained'::text, t.id::text, NULL::text, NULL::bigint, NULL::bigint
    FROM corebank.transactions t
    WHERE t.status IN ('POSTED', 'REVERSED')
      AND NOT EXISTS (SELECT FROM corebank.journal_entries x WHERE x.transaction_id = t.id)
    UNION ALL
    SELECT DISTINCT 'unchained'::text, x.transaction_id::text, NULL::text, NULL::bigint, NULL::bigint
    FROM corebank.journal_entries x
    JOIN corebank.transactions t ON t.id = x.transaction_id
    WHERE t.status NOT IN ('POSTED', 'REVERSED');
END
$fn$;
