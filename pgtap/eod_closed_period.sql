-- eod_closed_period.sql: interest after a closed period (issue 13, part 1:
-- "a date in a closed period is reported, not posted").
--
-- Goal: when June is closed while days of June are still to accrue, the
-- dates of June skip their money-posting jobs (eod_runner.sql), and the open
-- dates after it skip interest too, with a report naming the closed period,
-- instead of failing a unit five times per date (which held every later date
-- open for minutes and posted nothing anyway); the other jobs of those dates
-- run. Reopening June lets the next date accrue every missed day once, each
-- with its own value date. Method: pin today and the runner's first date,
-- close June through maker-checker, step the runner in this transaction.
BEGIN;
SELECT plan(9);
\ir helpers/deposits.sql

\ir helpers/eod.sql

DELETE FROM corebank.eod_job_units;
DELETE FROM corebank.eod_jobs;
UPDATE corebank.eod_runner SET first_date = '2026-06-29';
UPDATE corebank.deposit_products SET annual_rate_bp = 365 WHERE code = 'SAV-STD';
SELECT pg_temp.today('2026-06-29');
CREATE TEMP TABLE acct AS SELECT pg_temp.open(pg_temp.customer('Rudo', 'N-EODCP'), 'SAV-STD', 1000000) AS id;
SELECT pg_temp.today('2026-07-02');
CREATE TEMP TABLE close_june AS SELECT corebank.core_period_close_request('2026-06', pg_temp.maker()) AS r;
SELECT is(corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM close_june), pg_temp.checker(), NULL)
          -> 'result' ->> 'status', 'CLOSED', 'June is closed with its last days not yet accrued');

CREATE TEMP TABLE run1 AS SELECT pg_temp.steps() AS s;
SELECT is((SELECT s -> -1 ->> 'step' FROM run1), 'idle', 'the runner goes through the three dates without waiting');
SELECT is((SELECT count(*) FROM corebank.eod_job_units WHERE last_error IS NOT NULL), 0::bigint,
          'no unit failed: nothing was tried that could not be posted');
SELECT is((SELECT state FROM corebank.eod_jobs WHERE business_date = '2026-07-01' AND job = 'interest'), 'SKIPPED',
          '1 July''s interest is SKIPPED: the days it would accrue begin in closed June');
SELECT is((SELECT report FROM corebank.eod_jobs WHERE business_date = '2026-07-01' AND job = 'interest'),
          'interest was not run for 2026-07-01: the days from 2026-06-29 to accrue include the closed period 2026-06; '
          'they are accrued when it is reopened', 'with a report naming the closed period');
SELECT is((SELECT array_agg(job || ':' || state ORDER BY position) FROM corebank.eod_jobs WHERE business_date = '2026-07-01'),
          ARRAY['approvals_lapse:SUCCEEDED', 'standing_orders:SUCCEEDED', 'interest:SKIPPED', 'dormancy:SUCCEEDED'],
          'the date''s other jobs run');
SELECT is((SELECT count(*) FROM corebank.interest_accruals WHERE account_id = (SELECT id FROM acct)), 0::bigint,
          'nothing was accrued');

-- Reopen June: the next date accrues every missed day.
CREATE TEMP TABLE reopen AS SELECT corebank.core_period_reopen_request('2026-06', pg_temp.maker()) AS r;
SELECT corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM reopen), pg_temp.checker(), NULL);
SELECT pg_temp.today('2026-07-03');
CREATE TEMP TABLE run2 AS SELECT pg_temp.steps() AS s;
SELECT is((SELECT state FROM corebank.eod_jobs WHERE business_date = '2026-07-02' AND job = 'interest'), 'SUCCEEDED',
          'after the reopening 2 July''s interest runs');
SELECT is((SELECT array_agg(accrual_date ORDER BY accrual_date) FROM corebank.interest_accruals
           WHERE account_id = (SELECT id FROM acct)),
          ARRAY['2026-06-29', '2026-06-30', '2026-07-01', '2026-07-02']::date[],
          'and accrues every missed day once');

SELECT * FROM finish();
ROLLBACK;
