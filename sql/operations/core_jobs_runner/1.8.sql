-- Where the runner stands (the `runner` member of GET /v1/jobs, and the
-- answer of POST /v1/jobs/run after its steps).
CREATE FUNCTION corebank.core_jobs_runner() RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.eod_runner_json()
$fn$;
