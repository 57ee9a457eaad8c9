-- Health of the balances; no rows = healthy:
--   ledger_account   a customer balance differs from its entries (credits - debits)
--   gl_debits/credits a GL account's stripes differ from its entries
--   trial_balance    debits and credits of a currency differ
--   unchained        a posted transaction has no entries, or entries belong
--                    to a transaction that is not posted
CREATE FUNCTION corebank.ledger_check_balances()
    RETURNS TABLE (problem text, subject text, currency text, expected_minor bigint, actual_minor bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN QUERY
    SELECT 'ledger_account'::text, a.account_number, a.currency::text, coalesce(e.net, 0)::bigint, a.balance_minor
    FROM corebank.ledger_accounts a
    LEFT JOIN (SELECT x.ledger_account_id,
                      sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE -x.amount_minor END) AS net
               FROM corebank.journal_entries x WHERE x.ledger_account_id IS NOT NULL
               GROUP BY x.ledger_account_id) e ON e.ledger_account_id = a.id
    WHERE a.balance_minor <> coalesce(e.net, 0);

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
