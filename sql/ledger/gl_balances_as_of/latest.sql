-- GL balances as of a value date: totals and the balance in the account's
-- normal direction, for every GL account (zero when never posted).
CREATE FUNCTION corebank.gl_balances_as_of(as_of date)
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
    LEFT JOIN (SELECT x.gl_account_id,
                      sum(CASE WHEN x.side = 'D' THEN x.amount_minor ELSE 0 END) AS debit,
                      sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE 0 END) AS credit
               FROM corebank.journal_entries x
               WHERE x.value_date <= as_of
               GROUP BY x.gl_account_id) s ON s.gl_account_id = g.id
    ORDER BY g.currency, g.code;
END
$fn$;
