-- GET /v1/jobs: the runner's jobs, newest business date first, filtered by
-- date, job and state; the page object carries where the runner stands.
CREATE FUNCTION corebank.core_jobs_list(run_date date, job text, state text, page int, size int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    bounds int[] := corebank_internal.page_bounds(page, size);
    total bigint;
    content jsonb;
BEGIN
    IF job IS NOT NULL AND NOT EXISTS (SELECT FROM corebank.eod_job_kinds k WHERE k.job = core_jobs_list.job) THEN
        PERFORM corebank_internal.fail('CBV00', 'job: is not a job of the runner');
    END IF;
    IF state IS NOT NULL AND state NOT IN ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'SKIPPED') THEN
        PERFORM corebank_internal.fail('CBV00', 'state: must be one of PENDING, RUNNING, SUCCEEDED, FAILED, SKIPPED');
    END IF;
    SELECT count(*) INTO total FROM corebank.eod_jobs j
    WHERE (run_date IS NULL OR j.business_date = run_date) AND (core_jobs_list.job IS NULL OR j.job = core_jobs_list.job)
      AND (core_jobs_list.state IS NULL OR j.state = core_jobs_list.state);
    SELECT jsonb_agg(corebank_internal.eod_job_json(p.j) ORDER BY (p.j).business_date DESC, (p.j).position) INTO content
    FROM (SELECT j FROM corebank.eod_jobs j
          WHERE (run_date IS NULL OR j.business_date = run_date) AND (core_jobs_list.job IS NULL OR j.job = core_jobs_list.job)
            AND (core_jobs_list.state IS NULL OR j.state = core_jobs_list.state)
          ORDER BY j.business_date DESC, j.position
          OFFSET bounds[1]::bigint * bounds[2] LIMIT bounds[2]) p;
    RETURN corebank_internal.page_json(content, bounds[1], bounds[2], total)
           || jsonb_build_object('runner', corebank_internal.eod_runner_json());
END
$fn$;
