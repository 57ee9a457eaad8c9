-- deposits_standing_orders.sql: standing orders (issue 4).
--
-- Goal: create, list by account, pause, resume, cancel and execute(date)
-- behave as the contract says; an execution reports what ran, what failed
-- and why; executing twice for one date never pays twice (the unique
-- execution per order and date), also when the first attempt failed; a
-- failure leaves the order due, a success moves it past the date; the end
-- date completes it; the terms and terminal states hold whoever writes.
-- Method: call the API and read balances and the execution rows.
BEGIN;
SELECT plan(40);
\ir helpers/deposits.sql

SELECT pg_temp.today('2026-01-31');
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Kuda', 'N-50') AS id;
CREATE TEMP TABLE src AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-STD') AS id;
CREATE TEMP TABLE dst AS SELECT pg_temp.open(pg_temp.customer('Landlord', 'N-51'), 'CUR-STD') AS id;
CREATE TEMP TABLE zwg AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-ZWG') AS id;
SELECT pg_temp.put((SELECT id FROM src), 30000);

CREATE TEMP TABLE so AS SELECT corebank.core_standing_orders_create(jsonb_build_object(
    'sourceAccountId', (SELECT id FROM src), 'targetAccountId', (SELECT id FROM dst), 'amount', '100.00',
    'frequency', 'monthly', 'startDate', '2026-01-31', 'endDate', '2026-03-31', 'description', 'rent'), pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'status' FROM so), 'ACTIVE', 'a standing order starts ACTIVE');
SELECT is((SELECT r ->> 'nextRunDate' FROM so), '2026-01-31', 'due on its start date');
SELECT ok((SELECT r ->> 'reference' FROM so) ~ '^SO[0-9]{8}$', 'with a reference');
CREATE TEMP TABLE o AS SELECT (r ->> 'id')::uuid AS id FROM so;

-- Creation rules.
SELECT throws_ok($$SELECT corebank.core_standing_orders_create(jsonb_build_object('sourceAccountId', (SELECT id FROM src), 'targetAccountId', (SELECT id FROM dst), 'amountMinor', 1, 'frequency', 'MONTHLY', 'startDate', '2026-01-30'), pg_temp.maker())$$,
                 'CBV00', 'startDate: must not be before the business date 2026-01-31', 'no start in the past');
SELECT throws_ok($$SELECT corebank.core_standing_orders_create(jsonb_build_object('sourceAccountId', (SELECT id FROM src), 'targetAccountId', (SELECT id FROM dst), 'amountMinor', 1, 'frequency', 'HOURLY', 'startDate', '2026-02-01'), pg_temp.maker())$$,
                 'CBV00', 'frequency: must be one of DAILY, WEEKLY, MONTHLY, QUARTERLY, YEARLY', 'an unknown frequency');
SELECT throws_ok($$SELECT corebank.core_standing_orders_create(jsonb_build_object('sourceAccountId', (SELECT id FROM src), 'targetAccountId', (SELECT id FROM zwg), 'amountMinor', 1, 'frequency', 'DAILY', 'startDate', '2026-02-01'), pg_temp.maker())$$,
                 'CB422', 'A standing order moves money between accounts of one currency', 'one currency');
SELECT throws_ok($$SELECT corebank.core_standing_orders_create(jsonb_build_object('sourceAccountId', (SELECT id FROM src), 'targetAccountId', (SELECT id FROM src), 'amountMinor', 1, 'frequency', 'DAILY', 'startDate', '2026-02-01'), pg_temp.maker())$$,
                 'CBV00', 'targetAccountId: must differ from sourceAccountId', 'not to itself');
SELECT throws_ok($$SELECT corebank.core_standing_orders_create(jsonb_build_object('sourceAccountId', (SELECT id FROM src), 'amountMinor', 1, 'frequency', 'DAILY', 'startDate', '2026-02-01'), pg_temp.maker())$$,
                 'CBV00', 'targetAccountId: is required (or beneficiaryId)', 'a target is required');

-- Listing by account (source or target).
SELECT is((SELECT jsonb_array_length(corebank.core_standing_orders_list((SELECT id FROM dst)))), 1, 'listed for the target');
SELECT is((SELECT corebank.core_standing_orders_list((SELECT id FROM src)) -> 0 ->> 'id'), (SELECT id::text FROM o),
          'and for the source');
SELECT throws_ok($$SELECT corebank.core_standing_orders_list('00000000-0000-4000-8000-00000000dead')$$,
                 'CB404', 'Account not found', 'an unknown account');

-- Execute: pays once per date.
CREATE TEMP TABLE ex1 AS SELECT corebank.core_standing_orders_execute('2026-01-31', NULL) AS r;
SELECT is((SELECT r -> 'results' -> 0 ->> 'outcome' FROM ex1), 'SUCCEEDED', 'the due order runs');
SELECT is(pg_temp.bal((SELECT id FROM dst)), 10000::bigint, 'and pays 100.00');
SELECT is((SELECT r -> 'results' -> 0 ->> 'nextRunDate' FROM ex1), '2026-02-28', 'next month, clamped to its end');
SELECT is((SELECT t.channel || ' ' || t.type FROM corebank.transactions t WHERE t.id = (SELECT (r -> 'results' -> 0 ->> 'transactionId')::uuid FROM ex1)),
          'STANDING_ORDER TRANSFER', 'a TRANSFER on the STANDING_ORDER channel');
CREATE TEMP TABLE ex2 AS SELECT corebank.core_standing_orders_execute('2026-01-31', NULL) AS r;
SELECT is((SELECT r -> 'results' -> 0 ->> 'outcome' FROM ex2), 'ALREADY_EXECUTED', 'executing the same date again reports it');
SELECT is(pg_temp.bal((SELECT id FROM dst)), 10000::bigint, 'and never pays twice');
SELECT throws_ok($$INSERT INTO corebank.standing_order_executions (standing_order_id, execution_date, scheduled_date, executed_by)
                   VALUES ((SELECT id FROM o), '2026-01-31', '2026-01-31', pg_temp.operator())$$,
                 '23505', NULL, 'one execution per order and date, whoever writes');
SELECT is((SELECT corebank.core_standing_orders_execute('2026-01-31', NULL) ->> 'succeeded'), '0', 'nothing else is due');

-- A failure says why, leaves the order due, and is retried on the next date.
SELECT pg_temp.today('2026-02-28');
SELECT pg_temp.take((SELECT id FROM src), 19950);
CREATE TEMP TABLE ex3 AS SELECT corebank.core_standing_orders_execute('2026-02-28', NULL) AS r;
SELECT is((SELECT r -> 'results' -> 0 ->> 'outcome' FROM ex3), 'FAILED', 'an order without funds fails');
SELECT is((SELECT r -> 'results' -> 0 ->> 'reason' FROM ex3),
          format('insufficient funds in account %s', (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM src))),
          'and says why');
SELECT is((SELECT r -> 'results' -> 0 ->> 'nextRunDate' FROM ex3), '2026-02-28', 'it stays due');
SELECT is((SELECT consecutive_failures FROM corebank.standing_orders WHERE id = (SELECT id FROM o)), 1, 'the failure is counted');
SELECT is((SELECT corebank.core_standing_orders_execute('2026-02-28', NULL) -> 'results' -> 0 ->> 'outcome'), 'ALREADY_EXECUTED',
          'a failed date is not retried for the same date');
SELECT pg_temp.put((SELECT id FROM src), 10000);
SELECT pg_temp.today('2026-03-01');
SELECT is((SELECT corebank.core_standing_orders_execute('2026-03-01', NULL) -> 'results' -> 0 ->> 'outcome'), 'SUCCEEDED',
          'the next execution date retries it');
SELECT is((SELECT next_run_date FROM corebank.standing_orders WHERE id = (SELECT id FROM o)), DATE '2026-03-31',
          'and moves it past the date (missed periods are not paid twice)');

-- Pause, resume, cancel.
SELECT is((SELECT corebank.core_standing_orders_pause((SELECT id FROM o), pg_temp.maker()) ->> 'status'), 'PAUSED', 'pause');
SELECT pg_temp.today('2026-03-31');
SELECT is((SELECT corebank.core_standing_orders_execute('2026-03-31', NULL) ->> 'due'), '0', 'a PAUSED order does not run');
SELECT throws_ok($$SELECT corebank.core_standing_orders_pause((SELECT id FROM o), pg_temp.maker())$$,
                 'CB409', 'Cannot pause a standing order that is PAUSED', 'pausing twice is a conflict');
SELECT throws_ok($$SELECT corebank.core_standing_orders_pause(NULL, pg_temp.maker())$$,
                 'CBV00', 'id: is required', 'pausing needs an id');
SELECT throws_ok($$SELECT corebank.core_standing_orders_resume('00000000-0000-4000-8000-00000000dead', pg_temp.maker())$$,
                 'CB404', 'Standing order not found', 'an unknown order is not resumed');
SELECT is((SELECT corebank.core_standing_orders_resume((SELECT id FROM o), pg_temp.maker()) ->> 'status'), 'ACTIVE', 'resume');
-- The last run completes the order (end date 31 March).
SELECT pg_temp.put((SELECT id FROM src), 10000);
SELECT is((SELECT corebank.core_standing_orders_execute('2026-03-31', NULL) -> 'results' -> 0 ->> 'outcome'), 'SUCCEEDED',
          'the resumed order runs');
SELECT is((SELECT status FROM corebank.standing_orders WHERE id = (SELECT id FROM o)), 'COMPLETED', 'past its end date it COMPLETES');
SELECT throws_ok($$SELECT corebank.core_standing_orders_cancel((SELECT id FROM o), pg_temp.maker())$$,
                 'CB409', 'Cannot cancel a standing order that is COMPLETED', 'a completed order is not cancelled');
CREATE TEMP TABLE o2 AS SELECT (corebank.core_standing_orders_create(jsonb_build_object(
    'sourceAccountId', (SELECT id FROM src), 'targetAccountId', (SELECT id FROM dst), 'amountMinor', 100,
    'frequency', 'WEEKLY', 'startDate', '2026-04-01'), pg_temp.maker()) ->> 'id')::uuid AS id;
SELECT is((SELECT corebank.core_standing_orders_cancel((SELECT id FROM o2), pg_temp.checker()) ->> 'status'), 'CANCELLED', 'cancel');
SELECT throws_ok($$UPDATE corebank.standing_orders SET status = 'ACTIVE' WHERE id = (SELECT id FROM o2)$$,
                 'CB409', 'a CANCELLED standing order is terminal', 'CANCELLED is terminal, whoever writes');
CREATE TEMP TABLE o3 AS SELECT (corebank.core_standing_orders_create(jsonb_build_object(
    'sourceAccountId', (SELECT id FROM src), 'targetAccountId', (SELECT id FROM dst), 'amountMinor', 100,
    'frequency', 'WEEKLY', 'startDate', '2026-04-01'), pg_temp.maker()) ->> 'id')::uuid AS id;
SELECT throws_ok($$UPDATE corebank.standing_orders SET amount_minor = 999999 WHERE id = (SELECT id FROM o3)$$,
                 'CB422', 'a standing order''s amount_minor cannot change', 'the terms are frozen');
SELECT throws_ok($$SELECT corebank.core_accounts_close((SELECT id FROM dst), NULL, pg_temp.maker())$$,
                 'CB422', 'The balance must be zero to close the account (it is 300.00)', 'closing checks the balance first');
SELECT ok(pg_temp.ledger_healthy(), 'every payment balanced');

SELECT * FROM finish();
ROLLBACK;
