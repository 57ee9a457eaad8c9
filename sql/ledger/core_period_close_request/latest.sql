CREATE FUNCTION corebank.core_period_close_request(period text, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF period IS NULL OR period !~ '^[0-9]{4}-(0[1-9]|1[0-2])$' THEN
        PERFORM corebank_internal.fail('CBV00', 'period: must be YYYY-MM');
    END IF;
    RETURN corebank.parked_change_create('period.close', 'period', period, '{}'::jsonb,
                                         format('Close accounting period %s', period), actor);
END
$fn$;
