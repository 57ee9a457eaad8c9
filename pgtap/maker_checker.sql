-- maker_checker.sql: parked changes (create, approve, reject, lapse).
--
-- Goal: a parked change is applied only when a second person approves it, in
-- the approving transaction; its maker can never approve it (CB403 from the
-- function, the CHECK constraint for a direct UPDATE); a decided change
-- cannot be decided again (CB409); rejection and lapse apply nothing; an
-- overdue change answers CB422 "the change has lapsed" and reads LAPSED.
-- Method: park branch_scoping.update (a configuration example) and read
-- platform_config after each decision. Turning branch scoping on is refused
-- until it is enforced (branch_scoping.sql), so the example turns it off,
-- from an "on" written into platform_config directly.
BEGIN;
SELECT plan(41);
\ir helpers/ledger.sql

CREATE FUNCTION pg_temp.park_scoping(enabled bool) RETURNS jsonb LANGUAGE sql
    AS $f$ SELECT corebank.parked_change_create('branch_scoping.update', 'platform', 'branch_scoping',
                                                jsonb_build_object('enabled', enabled), 'scoping', pg_temp.maker()) $f$;
CREATE FUNCTION pg_temp.scoping() RETURNS bool LANGUAGE sql STABLE
    AS $f$ SELECT branch_scoping FROM corebank.platform_config $f$;
UPDATE corebank.platform_config SET branch_scoping = true;

-- Parking.
CREATE TEMP TABLE c1 AS SELECT pg_temp.park_scoping(false) AS r;
SELECT is((SELECT r ->> 'status' FROM c1), 'PENDING', 'a parked change is PENDING');
SELECT is((SELECT r ->> 'makerId' FROM c1), pg_temp.maker()::text, 'its maker is recorded');
SELECT is((SELECT (r ->> 'expiresAt')::timestamptz - (r ->> 'createdAt')::timestamptz FROM c1), interval '72 hours',
          'it lapses after 72 hours by default');
SELECT is(pg_temp.scoping(), true, 'parking changed nothing');
SELECT throws_ok($$SELECT pg_temp.park_scoping(false)$$, 'CB409',
                 'a branch_scoping.update of this platform is already awaiting approval',
                 'one pending change per operation and entity');
SELECT throws_ok($$SELECT corebank.parked_change_create('payroll.run', 'platform', 'x', '{}', 's', pg_temp.maker())$$,
                 'CBV00', 'operation: unknown operation ''payroll.run''', 'an unknown operation');
SELECT throws_ok($$SELECT corebank.parked_change_create('period.close', 'platform', '2024-01', '{}', 's', pg_temp.maker())$$,
                 'CBV00', 'entity_type: must be period for period.close', 'the entity type of the operation');
SELECT throws_ok($$SELECT corebank.parked_change_create('branch_scoping.update', 'platform', 'branch_scoping', '{"enabled": "yes"}', 's', pg_temp.maker())$$,
                 'CBV00', NULL, 'the payload is validated when parked');
SELECT throws_ok($$SELECT corebank.parked_change_create('period.close', 'period', '2024-01', '[]', 's', pg_temp.maker())$$,
                 'CBV00', 'payload: must be a JSON object', 'the payload is an object');
SELECT throws_ok($$SELECT corebank.parked_change_create('period.close', 'period', '2024-01', '{}', 's', NULL)$$,
                 'CBV00', 'maker_id: is required', 'a maker is required');

-- The maker cannot approve, through the function or directly.
SELECT throws_ok($$SELECT corebank.parked_change_approve((SELECT (r ->> 'id')::uuid FROM c1), pg_temp.maker(), NULL)$$,
                 'CB403', 'the maker of a change cannot approve it', 'the maker cannot approve');
SELECT throws_ok($$SELECT corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM c1), pg_temp.maker(), NULL)$$,
                 'CB403', 'the maker of a change cannot approve it', 'the maker cannot approve through core_approval_approve');
SELECT throws_ok($$SELECT corebank.parked_change_reject((SELECT (r ->> 'id')::uuid FROM c1), pg_temp.maker(), 'no')$$,
                 'CB403', 'the maker of a change cannot reject it', 'the maker cannot reject either');
SELECT throws_ok($$UPDATE corebank.parked_changes SET status = 'APPROVED', checker_id = maker_id, decided_at = now()
                   WHERE id = (SELECT (r ->> 'id')::uuid FROM c1)$$,
                 '23514', 'new row for relation "parked_changes" violates check constraint "parked_changes_checker_not_maker"',
                 'a direct UPDATE setting checker = maker is refused by the CHECK');
SELECT is(pg_temp.scoping(), true, 'still nothing applied');

-- A checker approves: applied in the same transaction, result stored.
CREATE TEMP TABLE a1 AS SELECT corebank.parked_change_approve((SELECT (r ->> 'id')::uuid FROM c1), pg_temp.checker(), 'fine') AS r;
SELECT is((SELECT r ->> 'status' FROM a1), 'APPROVED', 'approved');
SELECT is((SELECT r ->> 'checkerId' FROM a1), pg_temp.checker()::text, 'the checker is recorded');
SELECT is((SELECT r ->> 'comment' FROM a1), 'fine', 'the comment is recorded');
SELECT is((SELECT r -> 'result' ->> 'enabled' FROM a1), 'false', 'the result is stored');
SELECT is(pg_temp.scoping(), false, 'the change was applied');
SELECT throws_ok($$SELECT corebank.parked_change_approve((SELECT (r ->> 'id')::uuid FROM c1), pg_temp.checker(), NULL)$$,
                 'CB409', 'the change is not pending (it is APPROVED)', 'an approved change cannot be approved again');
SELECT throws_ok($$SELECT corebank.parked_change_reject((SELECT (r ->> 'id')::uuid FROM c1), pg_temp.checker(), 'late')$$,
                 'CB409', 'the change is not pending (it is APPROVED)', 'an approved change cannot be rejected');
SELECT throws_ok($$UPDATE corebank.parked_changes SET comment = 'edited' WHERE id = (SELECT (r ->> 'id')::uuid FROM c1)$$,
                 'CB409', 'a decided change cannot be modified', 'a decided change is frozen');
SELECT throws_ok($$DELETE FROM corebank.parked_changes$$, 'CB422', 'parked changes cannot be deleted', 'no deletes');
SELECT throws_ok($$SELECT corebank.parked_change_approve(gen_random_uuid(), pg_temp.checker(), NULL)$$,
                 'CB404', 'Approval not found', 'an unknown change');

-- Rejection applies nothing.
UPDATE corebank.platform_config SET branch_scoping = true;
CREATE TEMP TABLE c2 AS SELECT pg_temp.park_scoping(false) AS r;
SELECT throws_ok($$SELECT corebank.parked_change_reject((SELECT (r ->> 'id')::uuid FROM c2), pg_temp.checker(), ' ')$$,
                 'CBV00', 'reason: is required', 'a rejection needs a reason');
SELECT is(corebank.parked_change_reject((SELECT (r ->> 'id')::uuid FROM c2), pg_temp.checker(), 'not now') ->> 'status',
          'REJECTED', 'rejected');
SELECT is(pg_temp.scoping(), true, 'the rejection applied nothing');
SELECT throws_ok($$SELECT corebank.parked_change_approve((SELECT (r ->> 'id')::uuid FROM c2), pg_temp.checker(), NULL)$$,
                 'CB409', 'the change is not pending (it is REJECTED)', 'a rejected change cannot be approved');

-- Lapse applies nothing; readers see LAPSED before maintenance stores it.
CREATE TEMP TABLE c3 AS SELECT pg_temp.park_scoping(false) AS r;
SELECT pg_temp.expire((SELECT (r ->> 'id')::uuid FROM c3));
SELECT throws_ok($$SELECT corebank.parked_change_approve((SELECT (r ->> 'id')::uuid FROM c3), pg_temp.checker(), NULL)$$,
                 'CB422', 'the change has lapsed', 'an overdue change cannot be approved');
SELECT is(pg_temp.scoping(), true, 'the lapsed change applied nothing');
SELECT is(corebank.core_approval_get((SELECT (r ->> 'id')::uuid FROM c3)) ->> 'status', 'LAPSED', 'it reads LAPSED');
SELECT is(corebank.parked_changes_lapse(), 1, 'maintenance stores one lapse');
SELECT is((SELECT status FROM corebank.parked_changes WHERE id = (SELECT (r ->> 'id')::uuid FROM c3)), 'LAPSED',
          'the row is LAPSED');
SELECT throws_ok($$SELECT corebank.parked_change_approve((SELECT (r ->> 'id')::uuid FROM c3), pg_temp.checker(), NULL)$$,
                 'CB409', 'the change is not pending (it is LAPSED)', 'a lapsed change is decided');

-- The lapse time comes from platform_config.
UPDATE corebank.platform_config SET lapse_hours = 5;
CREATE TEMP TABLE c4 AS SELECT pg_temp.park_scoping(false) AS r;
SELECT is((SELECT (r ->> 'expiresAt')::timestamptz - (r ->> 'createdAt')::timestamptz FROM c4), interval '5 hours',
          'the lapse time follows platform_config');
SELECT is((corebank.core_approvals_list('PENDING', 0, 10) -> 'content' -> 0 ->> 'id'), (SELECT r ->> 'id' FROM c4),
          'core_approvals_list lists the pending change');
SELECT throws_ok($$SELECT corebank.core_approvals_list(NULL, -1, 10)$$, 'CBV00', 'page: must be from 0 to 1000000',
                 'the approvals page is bounded');
SELECT throws_ok($$SELECT corebank.core_approvals_list(NULL, 0, 0)$$, 'CBV00',
                 format('size: must be from 1 to %s', corebank_internal.limit_page_size_max()), 'so is its size');
SELECT throws_ok($$SELECT corebank.core_approvals_list('open', 5000000, 0)$$, 'CBV00',
                 'status: must be PENDING, APPROVED, REJECTED or LAPSED', 'the status is checked before the page');
SELECT is((corebank.core_approvals_list(NULL, NULL, NULL) ->> 'size')::int, corebank_internal.limit_page_size_default(),
          'no size: the default');

SELECT * FROM finish();
ROLLBACK;
