-- deposits_interest_rerun.sql: running a day's interest again after a new
-- account was opened that day (regression: the second run collided with the
-- first run's accrual journal and failed every later run).
--
-- Goal: the second run accrues only the new account, in a second journal
-- (batch 2, reference suffix -2), and the first journal is untouched.
-- Method: run 10 June, open an account, run 10 June again.
BEGIN;
SELECT plan(5);
\ir helpers/deposits.sql

UPDATE corebank.deposit_products SET annual_rate_bp = 365 WHERE code = 'SAV-STD';
SELECT pg_temp.today('2026-06-09');
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Rudo', 'N-77') AS id;
CREATE TEMP TABLE first_account AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-STD', 1000000) AS id;
SELECT pg_temp.today('2026-06-10');
SELECT lives_ok($$SELECT corebank.core_interest_run('2026-06-10', pg_temp.operator())$$, 'the first run of 10 June');
CREATE TEMP TABLE second_account AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-STD', 2000000) AS id;
SELECT lives_ok($$SELECT corebank.core_interest_run('2026-06-10', pg_temp.operator())$$,
                'a second run of 10 June after a new account was opened');
SELECT is((SELECT array_agg(batch ORDER BY batch) FROM corebank.interest_accrual_journals
           WHERE accrual_date = '2026-06-10'), ARRAY[1, 2]::smallint[], 'two journals for the day: batches 1 and 2');
SELECT is((SELECT count(*) FROM corebank.interest_accruals WHERE accrual_date = '2026-06-10'), 2::bigint,
          'each account accrued once for the day');
SELECT is((SELECT count(*) FROM corebank.transactions WHERE reference LIKE 'ACR-20260610-USD-%-2'), 1::bigint,
          'the second journal is referenced with the batch suffix -2');

SELECT * FROM finish();
ROLLBACK;
