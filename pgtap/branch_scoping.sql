-- branch_scoping.sql: branch scoping cannot be turned on while nothing enforces it.
--
-- Goal: no read or write is limited by branch yet, so the flag of
-- GET /v1/platform/branch-scoping must never say it is. Turning it on is
-- refused with CB422 (HTTP 422) by the maker-checker engine
-- (pg/parked_changes.cpp), for the tier and psql alike: when it is parked,
-- through the tier's function or parked_change_create, and when an "on"
-- change parked before extension 1.6 is approved. Turning it off stays
-- allowed, also when the flag is already on.
-- Method: call each way in as psql would, and read platform_config and
-- parked_changes after each refusal. What a release before 1.6 left behind
-- (a pending "on" change, an "on" flag) is written into the tables directly.
BEGIN;
SELECT plan(16);
\ir helpers/ledger.sql

CREATE FUNCTION pg_temp.scoping() RETURNS bool LANGUAGE sql STABLE
    AS $f$ SELECT branch_scoping FROM corebank.platform_config $f$;
CREATE FUNCTION pg_temp.parked_scoping_changes() RETURNS bigint LANGUAGE sql STABLE
    AS $f$ SELECT count(*) FROM corebank.parked_changes WHERE operation = 'branch_scoping.update' $f$;

SELECT is(pg_temp.scoping(), false, 'branch scoping starts off');

-- Parking "on" is refused, whichever function parks it.
SELECT throws_ok($$SELECT corebank.core_branch_scoping_update_request('{"enabled": true}', pg_temp.maker())$$,
                 'CB422', 'Branch scoping cannot be turned on: it is not enforced yet',
                 'the tier''s function refuses to park "on"');
SELECT throws_ok($$SELECT corebank.parked_change_create('branch_scoping.update', 'platform', 'branch_scoping',
                                                      '{"enabled": true}', 'on', pg_temp.maker())$$,
                 'CB422', 'Branch scoping cannot be turned on: it is not enforced yet',
                 'parked_change_create from psql refuses "on" too');
SELECT is(pg_temp.parked_scoping_changes(), 0::bigint, 'no change was parked');
SELECT throws_ok($$SELECT corebank.core_branch_scoping_update_request('{"enabled": "yes"}', pg_temp.maker())$$,
                 'CBV00', NULL, 'a malformed request is still a validation error, not the refusal');
SELECT is(pg_temp.scoping(), false, 'the flag stays off');

-- An "on" change parked before 1.6 cannot be approved; it stays pending.
CREATE TEMP TABLE old_on AS
    WITH parked AS (
        INSERT INTO corebank.parked_changes (operation, entity_type, entity_id, payload, summary, maker_id, expires_at)
        VALUES ('branch_scoping.update', 'platform', 'branch_scoping', '{"enabled": true}', 'Turn branch scoping on',
                pg_temp.maker(), now() + interval '72 hours')
        RETURNING id)
    SELECT id FROM parked;
SELECT is(corebank.core_approval_get((SELECT id FROM old_on)) ->> 'status', 'PENDING', 'an "on" change parked before 1.6');
SELECT throws_ok($$SELECT corebank.core_approval_approve((SELECT id FROM old_on), pg_temp.checker(), NULL)$$,
                 'CB422', 'Branch scoping cannot be turned on: it is not enforced yet',
                 'approving it through the tier''s function is refused');
SELECT throws_ok($$SELECT corebank.parked_change_approve((SELECT id FROM old_on), pg_temp.checker(), NULL)$$,
                 'CB422', 'Branch scoping cannot be turned on: it is not enforced yet',
                 'and through parked_change_approve from psql');
SELECT is(pg_temp.scoping(), false, 'the refused approvals applied nothing');
SELECT is((SELECT status FROM corebank.parked_changes WHERE id = (SELECT id FROM old_on)), 'PENDING',
          'the change is still pending (a checker may reject it)');
SELECT is(corebank.parked_change_reject((SELECT id FROM old_on), pg_temp.checker(), 'not enforced') ->> 'status',
          'REJECTED', 'and rejecting it works');

-- Turning it off stays allowed, also when it was turned on before 1.6.
UPDATE corebank.platform_config SET branch_scoping = true;
CREATE TEMP TABLE off AS SELECT corebank.core_branch_scoping_update_request('{"enabled": false}', pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'status' FROM off), 'PENDING', 'turning it off is parked');
SELECT is(pg_temp.scoping(), true, 'parking it changed nothing yet');
SELECT is(corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM off), pg_temp.checker(), NULL) ->> 'status',
          'APPROVED', 'and approved');
SELECT is(pg_temp.scoping(), false, 'the approval turned it off');

SELECT * FROM finish();
ROLLBACK;
