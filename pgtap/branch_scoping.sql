-- branch_scoping.sql: branch scoping cannot be turned on while nothing enforces it.
--
-- Goal: no read or write is limited by branch yet, so the flag of
-- GET /v1/platform/branch-scoping must never say it is. Turning it on is
-- refused with CB422 (HTTP 422) when it is parked, through the tier's
-- function or parked_change_create from psql, and when it would be applied:
-- approving an "on" change parked before 1.6, or a direct UPDATE. Turning it
-- off stays allowed, also when the flag is already on.
-- Method: call each way in as the superuser, as psql would, and read
-- platform_config and parked_changes after each refusal. A pending "on"
-- change and an "on" flag from before 1.6 are made by disabling the guard
-- triggers for one statement (inside this test's transaction).
BEGIN;
SELECT plan(17);
\ir helpers/ledger.sql

CREATE FUNCTION pg_temp.scoping() RETURNS bool LANGUAGE sql STABLE
    AS $f$ SELECT branch_scoping FROM corebank.platform_config $f$;
CREATE FUNCTION pg_temp.parked_scoping_changes() RETURNS bigint LANGUAGE sql STABLE
    AS $f$ SELECT count(*) FROM corebank.parked_changes WHERE operation = 'branch_scoping.update' $f$;

SELECT has_trigger('corebank', 'parked_changes', 'parked_changes_branch_scoping_on', 'parking "on" is guarded');
SELECT has_trigger('corebank', 'platform_config', 'platform_config_branch_scoping_on', 'applying "on" is guarded');
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

-- Applying "on" is refused.
SELECT throws_ok($$UPDATE corebank.platform_config SET branch_scoping = true$$,
                 'CB422', 'Branch scoping cannot be turned on: it is not enforced yet', 'a direct UPDATE is refused');
SELECT is(pg_temp.scoping(), false, 'the flag stays off');

-- An "on" change parked before 1.6 cannot be approved; it stays pending.
ALTER TABLE corebank.parked_changes DISABLE TRIGGER parked_changes_branch_scoping_on;
CREATE TEMP TABLE old_on AS
    SELECT corebank.core_branch_scoping_update_request('{"enabled": true}', pg_temp.maker()) AS r;
ALTER TABLE corebank.parked_changes ENABLE TRIGGER parked_changes_branch_scoping_on;
SELECT is((SELECT r ->> 'status' FROM old_on), 'PENDING', 'an "on" change parked before 1.6');
SELECT throws_ok($$SELECT corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM old_on), pg_temp.checker(), NULL)$$,
                 'CB422', 'Branch scoping cannot be turned on: it is not enforced yet',
                 'approving it is refused');
SELECT is(pg_temp.scoping(), false, 'the refused approval applied nothing');
SELECT is((SELECT status FROM corebank.parked_changes WHERE id = (SELECT (r ->> 'id')::uuid FROM old_on)), 'PENDING',
          'the change is still pending (a checker may reject it)');
SELECT is(corebank.parked_change_reject((SELECT (r ->> 'id')::uuid FROM old_on), pg_temp.checker(), 'not enforced') ->> 'status',
          'REJECTED', 'and rejecting it works');

-- Turning it off stays allowed, also when it was on before 1.6.
ALTER TABLE corebank.platform_config DISABLE TRIGGER platform_config_branch_scoping_on;
UPDATE corebank.platform_config SET branch_scoping = true;
ALTER TABLE corebank.platform_config ENABLE TRIGGER platform_config_branch_scoping_on;
CREATE TEMP TABLE off AS SELECT corebank.core_branch_scoping_update_request('{"enabled": false}', pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'status' FROM off), 'PENDING', 'turning it off is parked');
SELECT is(corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM off), pg_temp.checker(), NULL) ->> 'status',
          'APPROVED', 'and approved');
SELECT is(pg_temp.scoping(), false, 'the approval turned it off');

SELECT * FROM finish();
ROLLBACK;
