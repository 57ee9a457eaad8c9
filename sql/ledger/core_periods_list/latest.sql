-- Every period that has a row (closed, reopened or posted into) and the
-- current business period, newest first.
CREATE FUNCTION corebank.core_periods_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.period_json(x.period) ORDER BY x.period DESC), '[]'::jsonb)
            FROM (SELECT p.period::text AS period FROM corebank.accounting_periods p
                  UNION
                  SELECT to_char(corebank_internal.business_today(), 'YYYY-MM')) x);
END
$fn$;
