-- A job (EodJob in docs/operations.md). Its unit errors (units retrying or
-- failed, at most 100) come with it; durationMs runs until it finishes.
CREATE FUNCTION corebank_internal.eod_job_json(j corebank.eod_jobs) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object(
        'id', j.id, 'businessDate', j.business_date, 'job', j.job, 'position', j.position, 'state', j.state,
        'unitsTotal', j.units_total, 'unitsSucceeded', n.succeeded, 'unitsFailed', n.failed, 'unitsPending', n.pending,
        'counts', j.counts, 'report', j.report, 'lastError', j.last_error,
        'errors', coalesce((SELECT jsonb_agg(e.item ORDER BY e.unit)
                            FROM (SELECT u.unit, jsonb_build_object('unit', u.unit, 'state', u.state, 'attempts', u.attempts,
                                                                     'error', u.last_error,
                                                                     'nextAttemptAt', CASE WHEN u.state = 'PENDING'
                                                                         THEN corebank_internal.iso_utc(u.next_attempt_at) END) AS item
                                  FROM corebank.eod_job_units u
                                  WHERE u.job_id = j.id AND u.last_error IS NOT NULL
                                  ORDER BY u.unit LIMIT 100) e), '[]'::jsonb),
        'createdAt', corebank_internal.iso_utc(j.created_at), 'startedAt', corebank_internal.iso_utc(j.started_at),
        'finishedAt', corebank_internal.iso_utc(j.finished_at),
        'durationMs', CASE WHEN j.started_at IS NOT NULL
                           THEN (extract(epoch FROM coalesce(j.finished_at, now()) - j.started_at) * 1000)::bigint END,
        'lagDays', greatest(0, (corebank_internal.business_today() - 1) - j.business_date))
    FROM (SELECT count(*) FILTER (WHERE u.state = 'SUCCEEDED') AS succeeded,
                 count(*) FILTER (WHERE u.state = 'FAILED') AS failed,
                 count(*) FILTER (WHERE u.state = 'PENDING') AS pending
          FROM corebank.eod_job_units u WHERE u.job_id = j.id) n
$fn$;
