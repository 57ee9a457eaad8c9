-- GET /v1/jobs/{id}.
CREATE FUNCTION corebank.core_jobs_get(job_id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404((SELECT corebank_internal.eod_job_json(j) FROM corebank.eod_jobs j WHERE j.id = job_id),
                                          'job not found')
$fn$;
