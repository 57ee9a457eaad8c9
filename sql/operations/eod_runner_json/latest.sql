-- Where the runner stands: the business date, the last date closed, the
-- next one to run and how many closed dates it is behind (0 when every day
-- before today has been run).
CREATE FUNCTION corebank_internal.eod_runner_json() RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object(
        'businessDate', t.today, 'firstDate', r.first_date, 'closedThrough', t.closed,
        'nextDate', t.closed + 1, 'lagDays', greatest(0, (t.today - 1) - t.closed),
        'runningJobs', (SELECT count(*) FROM corebank.eod_jobs j WHERE j.state IN ('PENDING', 'RUNNING')),
        'failedJobs', (SELECT count(*) FROM corebank.eod_jobs j WHERE j.state = 'FAILED'),
        'jobs', (SELECT jsonb_agg(jsonb_build_object('job', k.job, 'position', k.position, 'postsMoney', k.posts_money,
                                                     'description', k.description) ORDER BY k.position)
                 FROM corebank.eod_job_kinds k))
    FROM corebank.eod_runner r,
         LATERAL (SELECT corebank_internal.business_today() AS today, corebank_internal.eod_closed_through() AS closed) t
$fn$;
