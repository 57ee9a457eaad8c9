-- eod_runner.sql: the end-of-day runner's database half (issue 13, part 1).
--
-- Goal: business dates close one by one, in order, each date's jobs in their
-- kinds' position order, and never twice: after a three-day outage stepping
-- corebank.eod_step runs the three missed dates (not today), accrues interest
-- once per account and day, posts a month end once, pays a standing order due
-- in the window once with its own value date, marks dormancy, and a second
-- pass does nothing. A money-posting job of a date in a CLOSED period is
-- SKIPPED with a report naming the period and posts nothing, the others run
-- and the runner moves on (and the skipped days are caught up once the
-- period reopens). A failing unit is retried with backoff while the other
-- units succeed, holds its date open ('waiting') until it is FAILED after the
-- kind's max_attempts, and the runner then goes on. A job kind registered
-- later (the domains' hook) runs after dormancy for the dates opened after
-- it. A unit re-armed by direct SQL pays nothing twice, and the unique keys
-- refuse duplicates whoever writes. The read functions filter, page and
-- refuse bad input with CBV00 / CB404.
-- Method: pin today (platform_config.today_override) and the runner's first
-- date, step the runner in this one transaction (finished_at is the clock
-- time, so it orders the work), read the tables and the API answers.
BEGIN;
SELECT plan(106);
\ir helpers/deposits.sql

\ir helpers/eod.sql
CREATE FUNCTION pg_temp.job(day date, kind text) RETURNS corebank.eod_jobs LANGUAGE sql STABLE
    AS $f$ SELECT j FROM corebank.eod_jobs j WHERE j.business_date = day AND j.job = kind $f$;
CREATE FUNCTION pg_temp.last_step(answers jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE
    AS $f$ SELECT answers -> (jsonb_array_length(answers) - 1) $f$;
CREATE FUNCTION pg_temp.opened(answers jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE
    AS $f$
    SELECT coalesce(jsonb_agg(a ->> 'businessDate' ORDER BY n), '[]'::jsonb)
    FROM jsonb_array_elements(answers) WITH ORDINALITY x(a, n) WHERE a ->> 'step' = 'opened'
$f$;
-- The jobs of a date as job:STATE, in the order they finished.
CREATE FUNCTION pg_temp.finished(day date) RETURNS text LANGUAGE sql STABLE
    AS $f$
    SELECT string_agg(j.job || ':' || j.state, ' ' ORDER BY j.finished_at)
    FROM corebank.eod_jobs j WHERE j.business_date = day
$f$;
CREATE FUNCTION pg_temp.runner() RETURNS jsonb LANGUAGE sql STABLE
    AS $f$ SELECT corebank.core_jobs_runner() - 'jobs' $f$;
CREATE FUNCTION pg_temp.number(account uuid) RETURNS text LANGUAGE sql STABLE
    AS $f$ SELECT a.account_number FROM corebank.ledger_accounts a WHERE a.id = account $f$;
CREATE FUNCTION pg_temp.order(source uuid, target uuid, amount bigint, frequency text, start date) RETURNS uuid
    LANGUAGE sql
    AS $f$
    SELECT (corebank.core_standing_orders_create(jsonb_build_object(
        'sourceAccountId', source, 'targetAccountId', target, 'amountMinor', amount, 'frequency', frequency,
        'startDate', start), pg_temp.maker()) ->> 'id')::uuid
$f$;
CREATE FUNCTION pg_temp.executions(so uuid) RETURNS text LANGUAGE sql STABLE
    AS $f$
    SELECT coalesce(string_agg(e.execution_date || ':' || e.status || ':' || t.value_date, ' ' ORDER BY e.execution_date), '')
    FROM corebank.standing_order_executions e LEFT JOIN corebank.transactions t ON t.id = e.transaction_id
    WHERE e.standing_order_id = so
$f$;

-- The runner starts on 29 June 2026 with nothing done.
DELETE FROM corebank.eod_job_units;
DELETE FROM corebank.eod_jobs;
UPDATE corebank.eod_runner SET first_date = '2026-06-29';
-- 3.65% makes 10,000.00 earn exactly 1.00 a day; CUR-ZWG goes dormant after 2 days.
UPDATE corebank.deposit_products SET annual_rate_bp = 365 WHERE code = 'SAV-STD';
UPDATE corebank.deposit_products SET dormancy_days = 2 WHERE code = 'CUR-ZWG';
SELECT pg_temp.today('2026-06-29');
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Rudo', 'N-130') AS id;
CREATE TEMP TABLE sav AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-STD', 1000000) AS id;
CREATE TEMP TABLE src AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-STD') AS id;
CREATE TEMP TABLE dst AS SELECT pg_temp.open(pg_temp.customer('Landlord', 'N-131'), 'CUR-STD') AS id;
CREATE TEMP TABLE zwg AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-ZWG') AS id;
SELECT pg_temp.put((SELECT id FROM src), 100000);
-- Monthly from 30 June (due on the window's second date), weekly from 29 June.
CREATE TEMP TABLE so_m AS SELECT pg_temp.order((SELECT id FROM src), (SELECT id FROM dst), 10000, 'MONTHLY', '2026-06-30') AS id;
CREATE TEMP TABLE so_w AS SELECT pg_temp.order((SELECT id FROM src), (SELECT id FROM dst), 1000, 'WEEKLY', '2026-06-29') AS id;

-- A three-day outage: today is 2 July, nothing run since 29 June.
SELECT pg_temp.today('2026-07-02');
SELECT is(pg_temp.runner(),
          '{"businessDate": "2026-07-02", "firstDate": "2026-06-29", "closedThrough": "2026-06-28", "nextDate": "2026-06-29",
            "lagDays": 3, "runningJobs": 0, "failedJobs": 0}'::jsonb,
          'before the catch-up the runner is 3 days behind, next date 29 June');
CREATE TEMP TABLE run1 AS SELECT pg_temp.steps() AS s;
SELECT is((SELECT pg_temp.opened(s) FROM run1), '["2026-06-29", "2026-06-30", "2026-07-01"]'::jsonb,
          'the catch-up opens the three missed dates one by one, in order');
SELECT is((SELECT pg_temp.last_step(s) FROM run1), '{"step": "idle", "nextDate": "2026-07-02"}'::jsonb,
          'and stops idle before today');
SELECT is((SELECT count(*) FROM corebank.eod_jobs WHERE business_date >= '2026-07-02'), 0::bigint, 'today is not run');
SELECT is((SELECT count(*) || ' ' || string_agg(DISTINCT state, ',') FROM corebank.eod_jobs), '12 SUCCEEDED',
          '12 jobs, all SUCCEEDED');
SELECT is((SELECT string_agg(business_date || ':' || job, ' ' ORDER BY finished_at) FROM corebank.eod_jobs),
          (SELECT string_agg(business_date || ':' || job, ' ' ORDER BY business_date, position) FROM corebank.eod_jobs),
          'the jobs finished date by date, each date''s in position order');
SELECT is(pg_temp.finished('2026-06-29'),
          'approvals_lapse:SUCCEEDED standing_orders:SUCCEEDED interest:SUCCEEDED dormancy:SUCCEEDED',
          'approvals lapse, standing orders, interest, dormancy');
SELECT ok((SELECT bool_and(u.finished_at <= j.finished_at) FROM corebank.eod_job_units u JOIN corebank.eod_jobs j ON j.id = u.job_id),
          'every unit finished before its job');
SELECT is((SELECT string_agg(accrual_date::text, ' ' ORDER BY accrual_date) FROM corebank.interest_accruals
           WHERE account_id = (SELECT id FROM sav)), '2026-06-29 2026-06-30 2026-07-01',
          'interest accrued once per account and day of the window');
SELECT is((SELECT string_agg(j.business_date || '=' || (j.counts ->> 'daysProcessed'), ' ' ORDER BY j.business_date)
           FROM corebank.eod_jobs j WHERE j.job = 'interest'), '2026-06-29=1 2026-06-30=1 2026-07-01=1',
          'each date''s interest job processes its one day');
-- The month end inside the window.
SELECT is((SELECT interest_minor FROM corebank.account_month_ends WHERE account_id = (SELECT id FROM sav) AND period = '2026-06'),
          200::bigint, 'the month end posts June''s two days of interest (2.00)');
SELECT is((SELECT count(*) || ' ' || min(value_date) FROM corebank.transactions
           WHERE reference = 'INT-202606-' || pg_temp.number((SELECT id FROM sav))), '1 2026-06-30',
          'once, as INT-202606-<account>, value date 30 June');
SELECT is(pg_temp.bal((SELECT id FROM sav)), 1000200::bigint, 'and credits the account once');
SELECT is((pg_temp.job('2026-06-30', 'interest')).counts ->> 'interestPostings', '1', 'the job counts the posting');
-- The standing orders.
SELECT is(pg_temp.executions((SELECT id FROM so_m)), '2026-06-30:SUCCEEDED:2026-06-30',
          'the monthly order due on 30 June is paid once, value date 30 June');
SELECT is(pg_temp.executions((SELECT id FROM so_w)), '2026-06-29:SUCCEEDED:2026-06-29',
          'the weekly order due on 29 June is paid once, value date 29 June');
SELECT is(pg_temp.bal((SELECT id FROM dst)), 11000::bigint - 500, 'the target received 100.00 + 10.00 (less its June fee)');
SELECT is((SELECT string_agg(j.business_date || '=' || j.units_total || '/' || coalesce(j.counts ->> 'paid', '-'), ' ' ORDER BY j.business_date)
           FROM corebank.eod_jobs j WHERE j.job = 'standing_orders'), '2026-06-29=1/1 2026-06-30=1/1 2026-07-01=0/-',
          'one unit per due order and date, counted as paid');
-- Dormancy.
SELECT is((SELECT string_agg(j.business_date || '=' || (j.counts ->> 'markedDormant'), ' ' ORDER BY j.business_date)
           FROM corebank.eod_jobs j WHERE j.job = 'dormancy'), '2026-06-29=0 2026-06-30=0 2026-07-01=1',
          'dormancy marks the CUR-ZWG account (2 dormancy days) on 1 July');
SELECT is(pg_temp.status((SELECT id FROM zwg)), 'DORMANT', 'the account is DORMANT');
-- Nothing is done twice.
CREATE TEMP TABLE before2 AS SELECT (SELECT count(*) FROM corebank.transactions) AS tx,
    (SELECT count(*) FROM corebank.eod_job_units) AS units, (SELECT count(*) FROM corebank.interest_accruals) AS accruals;
CREATE TEMP TABLE run2 AS SELECT pg_temp.steps() AS s;
SELECT is((SELECT s FROM run2), '[{"step": "idle", "nextDate": "2026-07-02"}]'::jsonb, 'a second loop of steps is idle');
SELECT is((SELECT ROW((SELECT count(*) FROM corebank.transactions), (SELECT count(*) FROM corebank.eod_job_units),
                      (SELECT count(*) FROM corebank.interest_accruals))::text),
          (SELECT ROW(tx, units, accruals)::text FROM before2), 'and changes nothing');
SELECT is(pg_temp.runner(),
          '{"businessDate": "2026-07-02", "firstDate": "2026-06-29", "closedThrough": "2026-07-01", "nextDate": "2026-07-02",
            "lagDays": 0, "runningJobs": 0, "failedJobs": 0}'::jsonb,
          'after the catch-up the runner is closed through yesterday, lag 0');
SELECT is((SELECT corebank.core_jobs_get((pg_temp.job('2026-06-29', 'interest')).id)
                  - 'id' - 'counts' - 'createdAt' - 'startedAt' - 'finishedAt' - 'durationMs'),
          '{"businessDate": "2026-06-29", "job": "interest", "position": 30, "state": "SUCCEEDED", "unitsTotal": 1,
            "unitsSucceeded": 1, "unitsFailed": 0, "unitsPending": 0, "report": null, "lastError": null, "errors": [],
            "lagDays": 2}'::jsonb,
          'core_jobs_get answers the job');
SELECT is((SELECT (corebank.core_jobs_runner() -> 'jobs') -> 0 ->> 'job'), 'approvals_lapse', 'the runner lists its kinds in order');

-- A hook (the place of lending, treasury, compliance): a kind registered now,
-- whose unit 'bad' fails on 2 July, retried once (max_attempts 2).
CREATE FUNCTION corebank_internal.eod_test_units(run_date date) RETURNS SETOF text LANGUAGE sql
    AS $f$ VALUES ('a'), ('b'), ('bad') $f$;
CREATE FUNCTION corebank_internal.eod_test_unit(run_date date, unit text, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $f$
BEGIN
    IF unit = 'bad' AND run_date = '2026-07-02' THEN
        RAISE EXCEPTION 'test unit % refused', unit;
    END IF;
    RETURN jsonb_build_object('handled', 1, 'weight', 2.5, 'note', 'not a number, not summed');
END
$f$;
INSERT INTO corebank.eod_job_kinds (job, position, units_function, unit_function, posts_money, max_attempts, description)
VALUES ('hook_test', 50, 'corebank_internal.eod_test_units', 'corebank_internal.eod_test_unit', false, 2, 'a test hook');
SELECT pg_temp.today('2026-07-04');
CREATE TEMP TABLE run3 AS SELECT pg_temp.steps() AS s;
SELECT is((SELECT pg_temp.last_step(s) ->> 'step' || ' ' || (pg_temp.last_step(s) ->> 'job') FROM run3), 'waiting hook_test',
          'a unit waiting for its retry: the runner answers waiting');
SELECT is(pg_temp.finished('2026-07-02'),
          'approvals_lapse:SUCCEEDED standing_orders:SUCCEEDED interest:SUCCEEDED dormancy:SUCCEEDED hook_test:RUNNING',
          'the jobs before the hook finished in order; the hook''s job is still RUNNING');
SELECT is((SELECT string_agg(u.unit || ':' || u.state || ':' || u.attempts, ' ' ORDER BY u.unit) FROM corebank.eod_job_units u
           WHERE u.job_id = (pg_temp.job('2026-07-02', 'hook_test')).id), 'a:SUCCEEDED:1 b:SUCCEEDED:1 bad:PENDING:1',
          'the other units succeeded; the failing one is PENDING after 1 attempt');
SELECT is((SELECT u.last_error FROM corebank.eod_job_units u
           WHERE u.job_id = (pg_temp.job('2026-07-02', 'hook_test')).id AND u.unit = 'bad'),
          'test unit bad refused (SQLSTATE P0001)', 'with its error');
SELECT is((SELECT u.next_attempt_at - now() FROM corebank.eod_job_units u
           WHERE u.job_id = (pg_temp.job('2026-07-02', 'hook_test')).id AND u.unit = 'bad'),
          interval '30 seconds', 'and its next attempt 30 seconds on (backoff)');
SELECT is((SELECT count(*) FROM corebank.eod_jobs WHERE business_date = '2026-07-03'), 0::bigint,
          'the next date is not opened while a unit waits');
SELECT is((SELECT (pg_temp.steps() -> 0) - 'nextAttemptAt'), (SELECT pg_temp.last_step(s) - 'nextAttemptAt' FROM run3),
          'stepping again still waits');
SELECT is((SELECT corebank.core_jobs_get((pg_temp.job('2026-07-02', 'hook_test')).id) -> 'errors' -> 0) - 'nextAttemptAt',
          '{"unit": "bad", "state": "PENDING", "attempts": 1, "error": "test unit bad refused (SQLSTATE P0001)"}'::jsonb,
          'the job lists the unit''s error');
SELECT isnt((SELECT corebank.core_jobs_get((pg_temp.job('2026-07-02', 'hook_test')).id) -> 'errors' -> 0 ->> 'nextAttemptAt'),
            NULL, 'and when it is tried next');
SELECT is((SELECT pg_temp.runner() ->> 'runningJobs' || ' ' || (pg_temp.runner() ->> 'closedThrough')), '1 2026-07-01',
          'the runner counts the running job and is closed through 1 July');
-- The hook ran after dormancy, only for the dates opened after it.
SELECT ok((SELECT min(u.finished_at) FROM corebank.eod_job_units u WHERE u.job_id = (pg_temp.job('2026-07-02', 'hook_test')).id)
          > (pg_temp.job('2026-07-02', 'dormancy')).finished_at, 'the hook''s units ran after dormancy (position 50)');
SELECT is((SELECT count(*) FROM corebank.eod_jobs WHERE job = 'hook_test' AND business_date < '2026-07-02'), 0::bigint,
          'dates opened before the hook was registered do not get it');
-- Time passes: the second failure is the last (max_attempts 2).
UPDATE corebank.eod_job_units SET next_attempt_at = now() - interval '1 second'
WHERE job_id = (pg_temp.job('2026-07-02', 'hook_test')).id AND unit = 'bad';
CREATE TEMP TABLE run4 AS SELECT pg_temp.steps() AS s;
SELECT is((SELECT (s -> 0) - 'jobId' FROM run4),
          '{"step": "unit", "job": "hook_test", "businessDate": "2026-07-02", "unit": "bad", "state": "FAILED",
            "error": "test unit bad refused (SQLSTATE P0001)"}'::jsonb,
          'the second failure makes the unit FAILED');
SELECT is((SELECT s -> 1 ->> 'step' || ' ' || (s -> 1 ->> 'state') FROM run4), 'finished FAILED', 'and the job FAILED');
SELECT is((SELECT u.state || ':' || u.attempts FROM corebank.eod_job_units u
           WHERE u.job_id = (pg_temp.job('2026-07-02', 'hook_test')).id AND u.unit = 'bad'), 'FAILED:2', 'after 2 attempts');
SELECT is((pg_temp.job('2026-07-02', 'hook_test')).counts, '{"handled": 2, "weight": 5.0}'::jsonb,
          'its counts sum the numbers of the succeeded units');
SELECT is((SELECT pg_temp.opened(s) FROM run4), '["2026-07-03"]'::jsonb, 'the runner goes on to the next date');
SELECT is(pg_temp.finished('2026-07-03'),
          'approvals_lapse:SUCCEEDED standing_orders:SUCCEEDED interest:SUCCEEDED dormancy:SUCCEEDED hook_test:SUCCEEDED',
          'where the hook runs after dormancy and succeeds');
SELECT is((SELECT pg_temp.runner() ->> 'failedJobs' || ' ' || (pg_temp.runner() ->> 'closedThrough') || ' '
                  || (pg_temp.runner() ->> 'lagDays')), '1 2026-07-03 0', 'the runner reports the failed job and is caught up');
SELECT is((SELECT corebank.core_jobs_get((pg_temp.job('2026-07-02', 'hook_test')).id) ->> 'unitsFailed'), '1',
          'the failed job counts its failed unit');

-- A closed period: July is closed before 4 and 5 July are run.
CREATE TEMP TABLE due AS SELECT pg_temp.order((SELECT id FROM src), (SELECT id FROM dst), 500, 'DAILY', '2026-07-04') AS id;
CREATE TEMP TABLE pc AS SELECT corebank.core_period_close_request('2026-07', pg_temp.maker()) AS r;
SELECT is(corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM pc), pg_temp.checker(), NULL) -> 'result' ->> 'status',
          'CLOSED', 'July is closed');
CREATE TEMP TABLE before5 AS SELECT (SELECT count(*) FROM corebank.transactions) AS tx;
SELECT pg_temp.today('2026-07-06');
CREATE TEMP TABLE run5 AS SELECT pg_temp.steps() AS s;
SELECT is((SELECT pg_temp.opened(s) FROM run5), '["2026-07-04", "2026-07-05"]'::jsonb, 'the runner moves on through the closed dates');
SELECT is(pg_temp.finished('2026-07-04'),
          'approvals_lapse:SUCCEEDED standing_orders:SKIPPED interest:SKIPPED dormancy:SUCCEEDED hook_test:SUCCEEDED',
          'the money-posting jobs of a closed date are SKIPPED, the others run');
SELECT is((pg_temp.job('2026-07-04', 'standing_orders')).report,
          'period 2026-07 is closed: standing_orders was not run for 2026-07-04', 'with a report naming the period');
SELECT is((pg_temp.job('2026-07-05', 'interest')).report, 'period 2026-07 is closed: interest was not run for 2026-07-05',
          'the next date too');
SELECT is((SELECT count(*) FROM corebank.eod_job_units u JOIN corebank.eod_jobs j ON j.id = u.job_id WHERE j.state = 'SKIPPED'),
          0::bigint, 'a SKIPPED job has no units');
SELECT is((SELECT count(*) FROM corebank.transactions), (SELECT tx FROM before5), 'nothing was posted');
SELECT is((SELECT count(*) FROM corebank.interest_accruals WHERE accrual_date >= '2026-07-04'), 0::bigint, 'nor accrued');
SELECT is(pg_temp.executions((SELECT id FROM due)), '', 'nor a due standing order executed');
SELECT is((SELECT corebank.core_jobs_get((pg_temp.job('2026-07-04', 'interest')).id) ->> 'state'), 'SKIPPED', 'the API shows it SKIPPED');
-- Reopened, the next date catches up what was skipped, once.
CREATE TEMP TABLE po AS SELECT corebank.core_period_reopen_request('2026-07', pg_temp.maker()) AS r;
SELECT corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM po), pg_temp.checker(), NULL);
SELECT pg_temp.today('2026-07-07');
CREATE TEMP TABLE run6 AS SELECT pg_temp.steps() AS s;
SELECT is((SELECT pg_temp.opened(s) FROM run6), '["2026-07-06"]'::jsonb, 'after the reopening the runner runs 6 July');
SELECT is((pg_temp.job('2026-07-06', 'interest')).counts ->> 'daysProcessed', '3',
          'its interest job accrues the skipped 4 and 5 July with 6 July');
SELECT is((SELECT string_agg(accrual_date::text, ' ' ORDER BY accrual_date) FROM corebank.interest_accruals
           WHERE account_id = (SELECT id FROM sav) AND accrual_date > '2026-07-01'),
          '2026-07-02 2026-07-03 2026-07-04 2026-07-05 2026-07-06', 'each day once');
SELECT is(pg_temp.executions((SELECT id FROM due)), '2026-07-06:SUCCEEDED:2026-07-06',
          'the daily order skipped on 4 and 5 July pays once on 6 July (missed periods are not paid twice)');
SELECT is(pg_temp.executions((SELECT id FROM so_w)), '2026-06-29:SUCCEEDED:2026-06-29 2026-07-06:SUCCEEDED:2026-07-06',
          'the weekly order pays its second week');

-- Exactly once under direct SQL: a SUCCEEDED unit (and its job) re-armed.
CREATE TEMP TABLE rearm AS SELECT (pg_temp.job('2026-06-30', 'standing_orders')).id AS id,
    pg_temp.bal((SELECT id FROM dst)) AS dst_balance, (SELECT count(*) FROM corebank.transactions) AS tx;
UPDATE corebank.eod_job_units SET state = 'PENDING', finished_at = NULL WHERE job_id = (SELECT id FROM rearm);
UPDATE corebank.eod_jobs SET state = 'RUNNING', finished_at = NULL WHERE id = (SELECT id FROM rearm);
SELECT is(pg_temp.runner() ->> 'closedThrough', '2026-06-29', 'a re-armed job reopens its date in the runner''s eyes');
CREATE TEMP TABLE run7 AS SELECT pg_temp.steps() AS s;
SELECT is((SELECT s -> 0 ->> 'step' || ' ' || (s -> 0 ->> 'businessDate') || ' ' || (s -> 0 ->> 'unit') FROM run7),
          'unit 2026-06-30 ' || (SELECT id FROM so_m), 'stepping runs the re-armed unit again');
SELECT is((SELECT u.result ->> 'outcome' FROM corebank.eod_job_units u WHERE u.job_id = (SELECT id FROM rearm)),
          'ALREADY_EXECUTED', 'which finds the order already executed for 30 June');
SELECT is(pg_temp.executions((SELECT id FROM so_m)), '2026-06-30:SUCCEEDED:2026-06-30', 'one execution still');
SELECT is(pg_temp.bal((SELECT id FROM dst)), (SELECT dst_balance FROM rearm), 'nothing is paid twice');
SELECT is((SELECT count(*) FROM corebank.transactions), (SELECT tx FROM rearm), 'nothing is posted');
SELECT is((SELECT j.state || ' ' || j.counts FROM corebank.eod_jobs j WHERE j.id = (SELECT id FROM rearm)),
          'SUCCEEDED {"paid": 0, "notDue": 0, "paymentsFailed": 0, "alreadyExecuted": 1}', 'the job finishes again, counting no payment');
SELECT is(pg_temp.runner() ->> 'closedThrough', '2026-07-06', 'and the runner is caught up again');
SELECT throws_ok($$INSERT INTO corebank.eod_jobs (business_date, job, position) VALUES ('2026-06-30', 'interest', 30)$$,
                 '23505', NULL, 'one job per kind and date, whoever writes');
SELECT throws_ok($$INSERT INTO corebank.eod_job_units (job_id, unit) VALUES ((SELECT id FROM rearm), (SELECT id::text FROM so_m))$$,
                 '23505', NULL, 'one unit per job and name, whoever writes');
SELECT throws_ok($$INSERT INTO corebank.standing_order_executions (standing_order_id, execution_date, scheduled_date, executed_by)
                   VALUES ((SELECT id FROM so_m), '2026-06-30', '2026-06-30', pg_temp.operator())$$,
                 '23505', NULL, 'one execution per order and date, whoever writes');

-- The execute endpoint's function answers as before.
CREATE TEMP TABLE tgt AS SELECT pg_temp.open(pg_temp.customer('Shop', 'N-132'), 'CUR-STD') AS id;
CREATE TEMP TABLE so_x AS SELECT pg_temp.order((SELECT id FROM src), (SELECT id FROM tgt), 700, 'DAILY', '2026-07-07') AS id;
CREATE TEMP TABLE ex1 AS SELECT corebank.core_standing_orders_execute('2026-07-07', NULL) AS r;
SELECT is((SELECT x - 'transactionId' FROM ex1, jsonb_array_elements(r -> 'results') x
           WHERE x ->> 'standingOrderId' = (SELECT id::text FROM so_x)),
          jsonb_build_object('standingOrderId', (SELECT id FROM so_x),
                             'reference', (SELECT reference FROM corebank.standing_orders WHERE id = (SELECT id FROM so_x)),
                             'scheduledDate', '2026-07-07', 'outcome', 'SUCCEEDED', 'amountMinor', 700, 'amount', '7.00',
                             'currency', 'USD', 'reason', NULL, 'nextRunDate', '2026-07-08'),
          'a due order is executed and reported');
SELECT is((SELECT r ->> 'date' || ' ' || (r ->> 'due') || ' ' || (r ->> 'succeeded') FROM ex1), '2026-07-07 2 2',
          'with the daily order due the same day');
CREATE TEMP TABLE ex2 AS SELECT corebank.core_standing_orders_execute('2026-07-07', NULL) AS r;
SELECT is((SELECT x ->> 'outcome' || ' ' || (x ->> 'transactionId') FROM ex2, jsonb_array_elements(r -> 'results') x
           WHERE x ->> 'standingOrderId' = (SELECT id::text FROM so_x)),
          'ALREADY_EXECUTED ' || (SELECT x ->> 'transactionId' FROM ex1, jsonb_array_elements(r -> 'results') x
                                  WHERE x ->> 'standingOrderId' = (SELECT id::text FROM so_x)),
          'a repeat reports ALREADY_EXECUTED with the first transaction');
SELECT is((SELECT r ->> 'alreadyExecuted' || ' ' || (r ->> 'succeeded') FROM ex2), '2 0', 'and pays nothing');
SELECT is(pg_temp.bal((SELECT id FROM tgt)), 700::bigint, 'the target was paid once');

-- Reading the jobs: 12 + 2 x 5 + 3 x 5 = 37.
SELECT is((SELECT corebank.core_jobs_list(NULL, NULL, NULL, 0, 5) - 'content' - 'runner'),
          '{"page": 0, "size": 5, "totalElements": 37, "totalPages": 8}'::jsonb, 'the list pages all jobs');
SELECT is((SELECT string_agg(x ->> 'businessDate' || ':' || (x ->> 'job'), ' ')
           FROM jsonb_array_elements(corebank.core_jobs_list(NULL, NULL, NULL, 0, 5) -> 'content') x),
          '2026-07-06:approvals_lapse 2026-07-06:standing_orders 2026-07-06:interest 2026-07-06:dormancy 2026-07-06:hook_test',
          'newest date first, in position order');
SELECT is((SELECT string_agg(x ->> 'businessDate' || ':' || (x ->> 'job'), ' ')
           FROM jsonb_array_elements(corebank.core_jobs_list(NULL, NULL, NULL, 7, 5) -> 'content') x),
          '2026-06-29:interest 2026-06-29:dormancy', 'the last page holds the oldest jobs');
SELECT is((SELECT string_agg(x ->> 'job', ' ') FROM jsonb_array_elements(corebank.core_jobs_list('2026-06-30', NULL, NULL, NULL, NULL) -> 'content') x),
          'approvals_lapse standing_orders interest dormancy', 'filtered by date');
SELECT is((SELECT corebank.core_jobs_list(NULL, 'interest', NULL, 0, 100) ->> 'totalElements'), '8', 'by job');
SELECT is((SELECT corebank.core_jobs_list(NULL, NULL, 'SKIPPED', 0, 100) ->> 'totalElements'), '4', 'by state');
SELECT is((SELECT string_agg(x ->> 'businessDate' || ':' || (x ->> 'job'), ' ')
           FROM jsonb_array_elements(corebank.core_jobs_list('2026-07-04', NULL, 'SKIPPED', 0, 100) -> 'content') x),
          '2026-07-04:standing_orders 2026-07-04:interest', 'by date and state');
SELECT is((SELECT corebank.core_jobs_list(NULL, 'hook_test', 'FAILED', 0, 100) -> 'content' -> 0 ->> 'businessDate'), '2026-07-02',
          'by job and state');
SELECT is((SELECT corebank.core_jobs_list('2026-01-01', NULL, NULL, 0, 10) - 'runner'),
          '{"content": [], "page": 0, "size": 10, "totalElements": 0, "totalPages": 0}'::jsonb, 'an empty page');
SELECT is((SELECT corebank.core_jobs_list(NULL, NULL, NULL, 0, 1) -> 'runner' ->> 'nextDate'), '2026-07-07',
          'the page carries where the runner stands');
SELECT throws_ok($$SELECT corebank.core_jobs_list(NULL, NULL, 'DONE', 0, 10)$$,
                 'CBV00', 'state: must be one of PENDING, RUNNING, SUCCEEDED, FAILED, SKIPPED', 'a bad state is refused');
SELECT throws_ok($$SELECT corebank.core_jobs_list(NULL, 'payroll', NULL, 0, 10)$$,
                 'CBV00', 'job: is not a job of the runner', 'an unknown job is refused');
SELECT throws_ok($$SELECT corebank.core_jobs_list(NULL, NULL, NULL, -1, 10)$$,
                 'CBV00', 'page: must be from 0 to 1000000', 'a bad page is refused');
SELECT throws_ok($$SELECT corebank.core_jobs_get('00000000-0000-4000-8000-00000000dead')$$,
                 'CB404', 'job not found', 'an unknown job id is 404');
SELECT throws_ok($$SELECT corebank.eod_step(NULL)$$, 'CBV00', 'worker: must be 1 to 200 characters', 'a step needs a worker');
SELECT throws_ok($$SELECT corebank.eod_step('')$$, 'CBV00', 'worker: must be 1 to 200 characters', 'a non-empty one');
SELECT throws_ok($$SELECT corebank.eod_step(repeat('w', 201))$$, 'CBV00', 'worker: must be 1 to 200 characters',
                 'of at most 200 characters');
SELECT is(corebank.eod_step(repeat('w', 200)) ->> 'step', 'idle', '200 characters are accepted');
SELECT throws_ok($$CALL corebank_internal.eod_run(0)$$, 'P0001', 'max_steps: must be from 1 to 1000000',
                 'eod_run takes a bounded number of steps');
SELECT is(ARRAY[corebank_internal.eod_retry_delay(1), corebank_internal.eod_retry_delay(2), corebank_internal.eod_retry_delay(3),
                corebank_internal.eod_retry_delay(7), corebank_internal.eod_retry_delay(20)],
          ARRAY[interval '30 seconds', interval '60 seconds', interval '120 seconds', interval '30 minutes', interval '30 minutes'],
          'the backoff doubles from 30 seconds up to 30 minutes');

-- A unit cut off by the statement timeout (the tier's step timeout) is a
-- failed attempt like any other: counted, its error kept, retried after the
-- backoff; uncaught, it would abort the step and leave the unit to be run
-- again at once, forever, with no error recorded.
CREATE FUNCTION corebank_internal.eod_test_slow(run_date date, unit text, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $f$
BEGIN
    PERFORM pg_sleep(30);
    RETURN '{"slept": 1}';
END
$f$;
INSERT INTO corebank.eod_job_kinds (job, position, units_function, unit_function, posts_money, max_attempts, description)
VALUES ('slow_test', 60, 'corebank_internal.eod_units_once', 'corebank_internal.eod_test_slow', false, 3, 'a slow test job');
SELECT pg_temp.today('2026-07-08');
SELECT is((SELECT pg_temp.last_step(pg_temp.steps('t', 2000, 'slow_test')) ->> 'businessDate'), '2026-07-07',
          'the slow job of 7 July is started');
SET LOCAL statement_timeout = '1s';
CREATE TEMP TABLE cut AS SELECT corebank.eod_step('t') AS a;
SET LOCAL statement_timeout = 0;
SELECT is((SELECT a - 'jobId' FROM cut),
          '{"step": "unit", "job": "slow_test", "businessDate": "2026-07-07", "unit": "all", "state": "PENDING",
            "error": "canceling statement due to statement timeout (SQLSTATE 57014)"}'::jsonb,
          'a unit cut off by the statement timeout is answered as a failed attempt');
SELECT is((SELECT u.attempts || ' ' || (u.next_attempt_at - now()) FROM corebank.eod_job_units u
           WHERE u.job_id = (pg_temp.job('2026-07-07', 'slow_test')).id), '1 00:00:30',
          'counted, and retried after the backoff');
CREATE OR REPLACE FUNCTION corebank_internal.eod_test_slow(run_date date, unit text, actor uuid) RETURNS jsonb
    LANGUAGE sql
    AS $f$ SELECT '{"slept": 0}'::jsonb $f$;
UPDATE corebank.eod_job_units SET next_attempt_at = now() - interval '1 second'
WHERE job_id = (pg_temp.job('2026-07-07', 'slow_test')).id;
SELECT is((SELECT pg_temp.last_step(pg_temp.steps()) ->> 'step'), 'idle', 'the retry runs');
SELECT is((SELECT j.state || ' ' || u.attempts FROM corebank.eod_jobs j JOIN corebank.eod_job_units u ON u.job_id = j.id
           WHERE j.id = (pg_temp.job('2026-07-07', 'slow_test')).id), 'SUCCEEDED 2', 'and succeeds at the second attempt');
-- So is a listing of the units cut off: the job waits with its error.
CREATE FUNCTION corebank_internal.eod_test_slow_units(run_date date) RETURNS SETOF text
    LANGUAGE plpgsql
    AS $f$
BEGIN
    PERFORM pg_sleep(30);
    RETURN NEXT 'all';
END
$f$;
INSERT INTO corebank.eod_job_kinds (job, position, units_function, unit_function, posts_money, description)
VALUES ('slow_list', 70, 'corebank_internal.eod_test_slow_units', 'corebank_internal.eod_test_slow', false, 'a slow listing');
SELECT pg_temp.today('2026-07-09');
SELECT is((SELECT pg_temp.last_step(pg_temp.steps('t', 2000, 'slow_test')) ->> 'businessDate'), '2026-07-08',
          'the runner reaches 8 July''s job before the slow listing');
SELECT is((SELECT corebank.eod_step('t') ->> 'step') || ' ' || (SELECT corebank.eod_step('t') ->> 'step'), 'unit finished',
          'its unit runs and it finishes');
SET LOCAL statement_timeout = '1s';
CREATE TEMP TABLE cut_list AS SELECT corebank.eod_step('t') AS a;
SET LOCAL statement_timeout = 0;
SELECT is((SELECT a - 'jobId' FROM cut_list),
          '{"step": "waiting", "job": "slow_list", "error": "canceling statement due to statement timeout (SQLSTATE 57014)"}'::jsonb,
          'a listing cut off by the statement timeout answers waiting with its error');
SELECT is((SELECT j.state || ': ' || j.last_error FROM corebank.eod_jobs j WHERE j.id = (pg_temp.job('2026-07-08', 'slow_list')).id),
          'PENDING: listing the units: canceling statement due to statement timeout (SQLSTATE 57014)', 'which the job keeps');

SELECT ok(pg_temp.ledger_healthy(), 'every posting balanced; balances match the journal');

SELECT * FROM finish();
ROLLBACK;
