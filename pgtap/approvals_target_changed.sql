-- approvals_target_changed.sql: a checker approves exactly what was shown
-- (issue 15, the approvals console).
--
-- Goal: parking records the target's state (parked_changes.target_before,
-- from parked_change_target); approval compares it with the target as it is
-- now and answers CB409 when they differ, leaving the change PENDING and
-- nothing applied; once the target is back as shown, the same change
-- approves. Rejection is not compared (refusing is always safe). The
-- recorded state is frozen with the proposal, GET shows it as `before`
-- beside `current`, a journal's state carries its entries, and a change
-- parked before 1.8 (no recorded state) approves without the comparison.
-- Method: branch_scoping.update, period.close and transaction.release,
-- with the target changed by direct writes between parking and approval.
BEGIN;
SELECT plan(21);
\ir helpers/ledger.sql

-- Sequences do not roll back, and later files read numbers (TX0000000001):
-- the journal captured below takes one, so every sequence is put back.
CREATE TEMP TABLE sequences_before AS
SELECT format('%I.%I', s.schemaname, s.sequencename) AS name, s.start_value, s.last_value
FROM pg_sequences s WHERE s.schemaname IN ('corebank', 'corebank_internal');

CREATE FUNCTION pg_temp.park_scoping() RETURNS uuid LANGUAGE sql
    AS $f$ SELECT (corebank.parked_change_create('branch_scoping.update', 'platform', 'branch_scoping',
                                                 '{"enabled": false}', 'scoping off', pg_temp.maker()) ->> 'id')::uuid $f$;
CREATE FUNCTION pg_temp.status(change_id uuid) RETURNS text LANGUAGE sql STABLE
    AS $f$ SELECT status FROM corebank.parked_changes WHERE id = change_id $f$;
CREATE FUNCTION pg_temp.scoping() RETURNS bool LANGUAGE sql STABLE
    AS $f$ SELECT branch_scoping FROM corebank.platform_config $f$;

-- Parking records the state shown; GET shows it as before and current.
UPDATE corebank.platform_config SET branch_scoping = true;
CREATE TEMP TABLE s1 AS SELECT pg_temp.park_scoping() AS id;
SELECT is((SELECT target_before FROM corebank.parked_changes WHERE id = (SELECT id FROM s1)),
          '{"branchScoping": true}'::jsonb, 'parking records the target''s state');
SELECT is(corebank.core_approval_get((SELECT id FROM s1)) -> 'before', '{"branchScoping": true}'::jsonb,
          'GET shows it as before');
SELECT is(corebank.core_approval_get((SELECT id FROM s1)) -> 'current', '{"branchScoping": true}'::jsonb,
          'and the target as it is now as current');
SELECT throws_ok($$UPDATE corebank.parked_changes SET target_before = '{"branchScoping": false}'
                   WHERE id = (SELECT id FROM s1)$$,
                 'CB422', NULL, 'the recorded state is frozen with the proposal');

-- The target changes: approval is a conflict, the change stays pending.
UPDATE corebank.platform_config SET branch_scoping = false;
SELECT is(corebank.core_approval_get((SELECT id FROM s1)) -> 'current', '{"branchScoping": false}'::jsonb,
          'current shows the change of the target');
SELECT throws_ok($$SELECT corebank.core_approval_approve((SELECT id FROM s1), pg_temp.checker(), 'ok')$$,
                 'CB409', 'the platform changed since this change was parked; review the change again (it stays pending)',
                 'approving a change whose target changed since parking is 409');
SELECT is(pg_temp.status((SELECT id FROM s1)), 'PENDING', 'the change stays pending');
SELECT is((SELECT checker_id FROM corebank.parked_changes WHERE id = (SELECT id FROM s1)), NULL,
          'and no checker is recorded');

-- Back as shown: the same change approves and applies.
UPDATE corebank.platform_config SET branch_scoping = true;
SELECT is(corebank.core_approval_approve((SELECT id FROM s1), pg_temp.checker(), 'ok') ->> 'status', 'APPROVED',
          'once the target is as shown again, the change approves');
SELECT is(pg_temp.scoping(), false, 'and is applied');

-- A period closed behind the change's back.
CREATE TEMP TABLE p1 AS
    SELECT (corebank.parked_change_create('period.close', 'period', '2024-01', '{}', 'close', pg_temp.maker()) ->> 'id')::uuid AS id;
SELECT is(corebank.core_approval_get((SELECT id FROM p1)) -> 'before', '{"period": "2024-01", "status": "OPEN"}'::jsonb,
          'a period''s recorded state');
INSERT INTO corebank.accounting_periods (period, status, closed_at, closed_by)
    VALUES ('2024-01', 'CLOSED', now(), pg_temp.operator());
SELECT throws_ok($$SELECT corebank.core_approval_approve((SELECT id FROM p1), pg_temp.checker(), NULL)$$,
                 'CB409', 'the period changed since this change was parked; review the change again (it stays pending)',
                 'a period closed since parking: 409 before the operation''s own check');
SELECT is(pg_temp.status((SELECT id FROM p1)), 'PENDING', 'the period change stays pending');
SELECT is(corebank.core_approval_reject((SELECT id FROM p1), pg_temp.checker(), 'already closed') ->> 'status',
          'REJECTED', 'a changed target can still be rejected');

-- A journal's state carries its entries; a later change of it is a conflict.
CREATE TEMP TABLE t1 AS SELECT pg_temp.capture(700) AS r;
CREATE TEMP TABLE j1 AS
    SELECT id FROM corebank.parked_changes
    WHERE operation = 'transaction.release' AND entity_id = (SELECT r ->> 'id' FROM t1);
SELECT is(jsonb_array_length(corebank.core_approval_get((SELECT id FROM j1)) -> 'before' -> 'entries'), 2,
          'a journal''s recorded state lists its entries');
SELECT is((corebank.core_approval_get((SELECT id FROM j1)) -> 'before' -> 'entries' -> 0 ->> 'amountMinor')::bigint,
          700::bigint, 'with their amounts');
SELECT is(corebank.core_approval_get((SELECT id FROM j1)) -> 'current',
          corebank.core_approval_get((SELECT id FROM j1)) -> 'before', 'unchanged, current equals before');
SELECT is(corebank.core_approval_approve((SELECT id FROM j1), pg_temp.checker(), NULL) ->> 'status', 'APPROVED',
          'an unchanged journal is released');

-- A change parked before 1.8 recorded no state: approved without the comparison.
UPDATE corebank.platform_config SET branch_scoping = true;
CREATE TEMP TABLE s2 AS SELECT pg_temp.park_scoping() AS id;
ALTER TABLE corebank.parked_changes DISABLE TRIGGER parked_changes_guard;
UPDATE corebank.parked_changes SET target_before = NULL WHERE id = (SELECT id FROM s2);
ALTER TABLE corebank.parked_changes ENABLE TRIGGER parked_changes_guard;
SELECT is(corebank.core_approval_get((SELECT id FROM s2)) -> 'before', 'null'::jsonb, 'no recorded state');
SELECT is(corebank.core_approval_approve((SELECT id FROM s2), pg_temp.checker(), NULL) ->> 'status', 'APPROVED',
          'is approved without the comparison');

SELECT setval(b.name, coalesce(b.last_value, b.start_value), b.last_value IS NOT NULL) FROM sequences_before b;
SELECT is_empty($$SELECT format('%I.%I', s.schemaname, s.sequencename), s.last_value FROM pg_sequences s
                  WHERE s.schemaname IN ('corebank', 'corebank_internal')
                  EXCEPT SELECT name, last_value FROM sequences_before$$,
                'every sequence is back where the test found it');

SELECT * FROM finish();
ROLLBACK;
