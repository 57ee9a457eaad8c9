CREATE FUNCTION corebank.core_gl_budgets_list(period text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF period IS NULL OR period !~ '^[0-9]{4}-(0[1-9]|1[0-2])$' THEN
        PERFORM corebank_internal.fail('CBV00', 'period: must be YYYY-MM');
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.gl_budget_json(b.id) ORDER BY g.code, g.currency), '[]'::jsonb)
            FROM corebank.gl_budgets b JOIN corebank.gl_accounts g ON g.id = b.gl_account_id
            WHERE b.period = period);
END
$fn$;
