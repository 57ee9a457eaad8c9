-- Parks a change of an accounting period ('period.close', 'period.reopen')
-- for a checker: the period is YYYY-MM, the summary "<verb> accounting
-- period <period>".
CREATE FUNCTION corebank_internal.parked_change_period(kind text, verb text, period text, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF period IS NULL OR period !~ '^[0-9]{4}-(0[1-9]|1[0-2])$' THEN
        PERFORM corebank_internal.fail('CBV00', 'period: must be YYYY-MM');
    END IF;
    RETURN corebank.parked_change_create(kind, 'period', period, '{}'::jsonb,
                                         format('%s accounting period %s', verb, period), actor);
END
$fn$;
