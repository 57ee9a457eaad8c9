-- GL balances as of a value date: totals and the balance in the account's
-- normal direction, for every GL account (zero when never posted). From
-- 1.8: the running totals (gl_balance_stripes) minus the day totals after
-- the date, so the cost is the number of GL account days with postings
-- after it, not the number of entries (ledger_check_balances proves both
-- from the journal).
CREATE OR REPLACE FUNCTION corebank.gl_balances_as_of(as_of date)
    RETURNS TABLE (gl_account_id uuid, code text, name text, type text, currency text,
                   debit_minor bigint, credit_minor bigint, balance_minor bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF as_of IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'as_of: is required');
    END IF;
    RETURN QUERY
    SELECT g.id, g.code, g.name, g.type, g.currency::text,
           coalesce(s.debit, 0)::bigint, coalesce(s.credit, 0)::bigint,
           corebank_internal.normal_balance(g.type, coalesce(s.debit, 0)::bigint, coalesce(s.credit, 0)::bigint)
    FROM corebank.gl_accounts g
    LEFT JOIN (SELECT r.gl_account_id, sum(r.debit) AS debit, sum(r.credit) AS credit
               FROM (SELECT b.gl_account_id, b.debit_minor AS debit, b.credit_minor AS credit
                     FROM corebank.gl_balance_stripes b
                     UNION ALL
                     SELECT t.gl_account_id, -t.debit_minor, -t.credit_minor
                     FROM corebank.gl_day_totals t
                     WHERE t.day > as_of) r
               GROUP BY r.gl_account_id) s ON s.gl_account_id = g.id
    ORDER BY g.currency, g.code;
END
$fn$;
