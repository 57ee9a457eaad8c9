-- Job dormancy: core_dormancy_run, the function of POST /v1/dormancy/run.
CREATE FUNCTION corebank_internal.eod_dormancy(run_date date, unit text, actor uuid) RETURNS jsonb
    LANGUAGE sql
    AS $fn$
    SELECT corebank.core_dormancy_run(run_date, actor) - 'runDate'
$fn$;
