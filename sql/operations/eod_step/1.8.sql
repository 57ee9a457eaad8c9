-- One step of the end-of-day runner (docs/operations.md), in the caller's
-- transaction: open the next business date, start the earliest unfinished
-- job, run one of its units, or finish it. Business dates close one by one
-- in order (a date opens only when every job of the date before has
-- finished, and only once it is over: before today), and the jobs of a date
-- in their kinds' order. Units are claimed FOR UPDATE SKIP LOCKED, so that
-- any number of callers (tier processes, pg_cron) split the work, and a
-- unit's outcome commits with the work it did: a caller killed mid-unit
-- leaves the unit PENDING and nothing posted. A unit that raises is rolled
-- back to its savepoint and retried after eod_retry_delay, while the job's
-- other units go on; after the kind's max_attempts it is FAILED and the job
-- finishes FAILED. A cancel (the tier's statement timeout) counts as such a
-- failure: uncaught (OTHERS does not catch it), it would abort the step and
-- leave the unit to be run again at once, forever, with no error kept. Answers {step: idle|opened|started|skipped|unit|waiting|
-- finished|raced, ...}: idle and waiting mean "nothing to do now".
CREATE FUNCTION corebank.eod_step(worker text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    today date := corebank_internal.business_today();
    j corebank.eod_jobs;
    k corebank.eod_job_kinds;
    u corebank.eod_job_units;
    next_date date;
    opened int;
    outcome jsonb;
    failure text;
    unit_state text;
    waiting_until timestamptz;
    skip_report text;
BEGIN
    IF worker IS NULL OR length(worker) NOT BETWEEN 1 AND 200 THEN
        PERFORM corebank_internal.fail('CBV00', 'worker: must be 1 to 200 characters');
    END IF;

    SELECT * INTO j FROM corebank.eod_jobs x WHERE x.state IN ('PENDING', 'RUNNING')
    ORDER BY x.business_date, x.position LIMIT 1;
    IF NOT FOUND THEN
        next_date := corebank_internal.eod_closed_through() + 1;
        IF next_date >= today THEN
            RETURN jsonb_build_object('step', 'idle', 'nextDate', next_date);
        END IF;
        -- Two callers may open the same date: the unique (job, date) keeps
        -- one row of each job.
        INSERT INTO corebank.eod_jobs (business_date, job, position)
        SELECT next_date, k2.job, k2.position FROM corebank.eod_job_kinds k2 ORDER BY k2.position
        ON CONFLICT (job, business_date) DO NOTHING;
        GET DIAGNOSTICS opened = ROW_COUNT;
        IF opened = 0 AND NOT EXISTS (SELECT FROM corebank.eod_jobs x WHERE x.business_date = next_date) THEN
            RETURN jsonb_build_object('step', 'idle', 'nextDate', next_date, 'reason', 'no job kinds');
        END IF;
        RETURN jsonb_build_object('step', 'opened', 'businessDate', next_date, 'jobs', opened);
    END IF;
    SELECT * INTO k FROM corebank.eod_job_kinds x WHERE x.job = j.job;

    IF j.state = 'PENDING' THEN
        SELECT * INTO j FROM corebank.eod_jobs x WHERE x.id = j.id FOR UPDATE;
        IF j.state <> 'PENDING' THEN
            RETURN jsonb_build_object('step', 'raced', 'jobId', j.id);
        END IF;
        -- A job that posts money does not run for a date in a closed
        -- period; a kind's skip_function may name other reasons (interest:
        -- days still to accrue inside a closed period).
        IF k.posts_money AND corebank_internal.eod_period_closed(j.business_date) THEN
            skip_report := format('period %s is closed: %s was not run for %s', to_char(j.business_date, 'YYYY-MM'),
                                  j.job, j.business_date);
        ELSIF k.skip_function IS NOT NULL THEN
            EXECUTE format('SELECT %s($1)', k.skip_function) INTO skip_report USING j.business_date;
        END IF;
        IF skip_report IS NOT NULL THEN
            UPDATE corebank.eod_jobs x
            SET state = 'SKIPPED', started_at = now(), finished_at = clock_timestamp(), report = left(skip_report, 1000)
            WHERE x.id = j.id;
            RETURN jsonb_build_object('step', 'skipped', 'jobId', j.id, 'job', j.job, 'businessDate', j.business_date);
        END IF;
        BEGIN
            EXECUTE format('INSERT INTO corebank.eod_job_units (job_id, unit) SELECT $1, u FROM %s($2) u '
                           'ON CONFLICT DO NOTHING', k.units_function)
                USING j.id, j.business_date;
            GET DIAGNOSTICS opened = ROW_COUNT;
        EXCEPTION WHEN OTHERS OR query_canceled THEN
            failure := format('%s (SQLSTATE %s)', SQLERRM, SQLSTATE);
        END;
        IF failure IS NOT NULL THEN
            -- The job stays PENDING and is tried again at the next step.
            UPDATE corebank.eod_jobs x SET last_error = left('listing the units: ' || failure, 1000) WHERE x.id = j.id;
            RETURN jsonb_build_object('step', 'waiting', 'jobId', j.id, 'job', j.job, 'error', failure);
        END IF;
        UPDATE corebank.eod_jobs x SET state = 'RUNNING', units_total = opened, started_at = now(), last_error = NULL
        WHERE x.id = j.id;
        RETURN jsonb_build_object('step', 'started', 'jobId', j.id, 'job', j.job, 'businessDate', j.business_date,
                                  'units', opened);
    END IF;

    SELECT * INTO u FROM corebank.eod_job_units x
    WHERE x.job_id = j.id AND x.state = 'PENDING' AND x.next_attempt_at <= now()
    ORDER BY x.next_attempt_at, x.unit
    LIMIT 1 FOR UPDATE SKIP LOCKED;
    IF FOUND THEN
        BEGIN
            EXECUTE format('SELECT %s($1, $2, $3)', k.unit_function) INTO outcome
                USING j.business_date, u.unit, corebank_internal.system_actor();
        EXCEPTION WHEN OTHERS OR query_canceled THEN
            failure := format('%s (SQLSTATE %s)', SQLERRM, SQLSTATE);
        END;
        unit_state := CASE WHEN failure IS NULL THEN 'SUCCEEDED'
                           WHEN u.attempts + 1 >= k.max_attempts THEN 'FAILED' ELSE 'PENDING' END;
        UPDATE corebank.eod_job_units x
        SET state = unit_state, attempts = x.attempts + 1, worker = eod_step.worker,
            result = coalesce(outcome, x.result), last_error = coalesce(left(failure, 1000), x.last_error),
            next_attempt_at = CASE WHEN unit_state = 'PENDING'
                                   THEN now() + corebank_internal.eod_retry_delay(x.attempts + 1) ELSE x.next_attempt_at END,
            finished_at = CASE WHEN unit_state <> 'PENDING' THEN clock_timestamp() END
        WHERE x.job_id = u.job_id AND x.unit = u.unit;
        RETURN jsonb_build_object('step', 'unit', 'jobId', j.id, 'job', j.job, 'businessDate', j.business_date,
                                  'unit', u.unit, 'state', unit_state, 'error', failure);
    END IF;

    SELECT min(x.next_attempt_at) INTO waiting_until FROM corebank.eod_job_units x
    WHERE x.job_id = j.id AND x.state = 'PENDING';
    IF waiting_until IS NOT NULL THEN
        -- Units in other callers' hands, or waiting for their next attempt.
        RETURN jsonb_build_object('step', 'waiting', 'jobId', j.id, 'job', j.job,
                                  'nextAttemptAt', corebank_internal.iso_utc(waiting_until));
    END IF;
    SELECT * INTO j FROM corebank.eod_jobs x WHERE x.id = j.id FOR UPDATE;
    IF j.state <> 'RUNNING' THEN
        RETURN jsonb_build_object('step', 'raced', 'jobId', j.id);
    END IF;
    UPDATE corebank.eod_jobs x
    SET state = CASE WHEN EXISTS (SELECT FROM corebank.eod_job_units v WHERE v.job_id = x.id AND v.state = 'FAILED')
                     THEN 'FAILED' ELSE 'SUCCEEDED' END,
        counts = (SELECT coalesce(jsonb_object_agg(c.key, c.total), '{}'::jsonb)
                  FROM (SELECT e.key, sum((e.value #>> '{}')::numeric) AS total
                        FROM corebank.eod_job_units v, jsonb_each(v.result) e
                        WHERE v.job_id = x.id AND jsonb_typeof(e.value) = 'number'
                        GROUP BY e.key) c),
        finished_at = clock_timestamp()
    WHERE x.id = j.id
    RETURNING x.* INTO j;
    RETURN jsonb_build_object('step', 'finished', 'jobId', j.id, 'job', j.job, 'businessDate', j.business_date,
                              'state', j.state);
END
$fn$;
