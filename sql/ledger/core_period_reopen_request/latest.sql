CREATE OR REPLACE FUNCTION corebank.core_period_reopen_request(period text, actor uuid) RETURNS jsonb
    LANGUAGE sql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$ SELECT corebank_internal.parked_change_period('period.reopen', 'Reopen', period, actor) $fn$;
