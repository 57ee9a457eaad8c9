-- eod_dormancy_date.sql: the dormancy of a catch-up date is dated that date
-- (issue 13, "running the bank, smaller fixes").
--
-- Goal: after downtime the end-of-day runner runs each missed date's
-- dormancy job for that date, so an account that became due on 1 July is
-- DORMANT since 1 July, not since the day the runner caught up (before 1.8's
-- fix, account_status_set stamped dormant_since with the business date);
-- POST /v1/dormancy/run keeps its meaning, an operator's run now: it stamps
-- the business date whatever date it is run for. Method: pin today and the
-- runner's first date, step the runner in this transaction, run
-- core_dormancy_run by hand, read deposit_accounts and the history.
BEGIN;
SELECT plan(8);
\ir helpers/deposits.sql

\ir helpers/eod.sql

DELETE FROM corebank.eod_job_units;
DELETE FROM corebank.eod_jobs;
UPDATE corebank.eod_runner SET first_date = '2026-06-29';
-- CUR-ZWG goes dormant two days after the last customer activity.
UPDATE corebank.deposit_products SET dormancy_days = 2 WHERE code = 'CUR-ZWG';
SELECT pg_temp.today('2026-06-29');
CREATE TEMP TABLE idle AS SELECT pg_temp.open(pg_temp.customer('Rudo', 'N-EODDD1'), 'CUR-ZWG') AS id;
-- FROZEN through the outage (frozen accounts do not go dormant), for the manual run below.
CREATE TEMP TABLE held AS SELECT pg_temp.open(pg_temp.customer('Tapiwa', 'N-EODDD2'), 'CUR-ZWG') AS id;
SELECT corebank_internal.account_status_set((SELECT id FROM held), 'FROZEN', 'held for the test', pg_temp.operator());

-- Down from 29 June to 4 July: the runner catches up 29 June to 3 July.
SELECT pg_temp.today('2026-07-04');
CREATE TEMP TABLE run1 AS SELECT pg_temp.steps() AS s;
SELECT is((SELECT s -> -1 ->> 'step' FROM run1), 'idle', 'the runner caught up every missed date');
SELECT is((SELECT string_agg(j.business_date || '=' || (j.counts ->> 'markedDormant'), ' ' ORDER BY j.business_date)
           FROM corebank.eod_jobs j WHERE j.job = 'dormancy'),
          '2026-06-29=0 2026-06-30=0 2026-07-01=1 2026-07-02=0 2026-07-03=0',
          'the dormancy job of 1 July marked the idle account');
SELECT is(pg_temp.status((SELECT id FROM idle)), 'DORMANT', 'the idle account is DORMANT');
SELECT is((SELECT dormant_since FROM corebank.deposit_accounts WHERE id = (SELECT id FROM idle)), DATE '2026-07-01',
          'DORMANT since 1 July, the date the job ran for, not 4 July when the runner caught up');
SELECT is((SELECT reason FROM corebank.account_status_history
           WHERE account_id = (SELECT id FROM idle) ORDER BY id DESC LIMIT 1),
          'no customer-initiated posting for 2 days', 'the history says why');

-- The manual run for a past date: the operator's run of today.
SELECT corebank_internal.account_status_set((SELECT id FROM held), 'ACTIVE', 'released', pg_temp.operator());
CREATE TEMP TABLE manual AS SELECT corebank.core_dormancy_run('2026-07-02', NULL) AS r;
SELECT is((SELECT (r ->> 'runDate') || ':' || (r ->> 'markedDormant') FROM manual), '2026-07-02:1',
          'POST /v1/dormancy/run for 2 July marks the released account');
SELECT is((SELECT dormant_since FROM corebank.deposit_accounts WHERE id = (SELECT id FROM held)), DATE '2026-07-04',
          'a manual run stamps the business date it was run on');
SELECT is((SELECT dormant_since FROM corebank.deposit_accounts WHERE id = (SELECT id FROM idle)), DATE '2026-07-01',
          'and leaves the account the runner marked as it was');

SELECT * FROM finish();
ROLLBACK;
