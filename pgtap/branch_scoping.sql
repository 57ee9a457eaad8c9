-- branch_scoping.sql: turning branch scoping on and off goes through maker-checker (issue 15).
--
-- Goal: since 1.8 the journal, maker-checker and the customer and account
-- domains read through corebank.branch_visible, so the flag of
-- GET /v1/platform/branch-scoping may say it is on. Turning it on or off is
-- parked (branch_scoping.update) and applied only when a second person
-- approves it; until then, and after a rejection, the flag read by
-- core_branch_scoping_get does not move. The maker cannot approve their own
-- change. A malformed request is a validation error and parks nothing. An
-- "on" change parked before 1.8 (when parking it was refused) is approved
-- like any other.
-- Method: call each way in as psql would (the tier's function and
-- parked_change_create), read core_branch_scoping_get and parked_changes
-- after each step. Which records the flag hides is the other
-- branch_scoping_*.sql files' business.
BEGIN;
SELECT plan(24);
\ir helpers/ledger.sql

CREATE FUNCTION pg_temp.enabled() RETURNS bool LANGUAGE sql STABLE
    AS $f$ SELECT (corebank.core_branch_scoping_get() ->> 'enabled')::bool $f$;
CREATE FUNCTION pg_temp.parked_scoping_changes() RETURNS bigint LANGUAGE sql STABLE
    AS $f$ SELECT count(*) FROM corebank.parked_changes WHERE operation = 'branch_scoping.update' $f$;

SELECT is(pg_temp.enabled(), false, 'branch scoping starts off');

-- On: parked, then approved by a second person.
CREATE TEMP TABLE turn_on AS SELECT corebank.core_branch_scoping_update_request('{"enabled": true}', pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'status' FROM turn_on), 'PENDING', 'turning it on is parked');
SELECT is((SELECT r ->> 'operation' FROM turn_on), 'branch_scoping.update', 'as branch_scoping.update');
SELECT is((SELECT r -> 'payload' FROM turn_on), '{"enabled": true}'::jsonb, 'proposing enabled: true');
SELECT is(pg_temp.enabled(), false, 'parking it changed nothing yet');
SELECT throws_ok($$SELECT corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM turn_on), pg_temp.maker(), NULL)$$,
                 'CB403', 'the maker of a change cannot approve it', 'the maker cannot approve it');
SELECT is(pg_temp.enabled(), false, 'the refused approval applied nothing');
SELECT throws_ok($$SELECT corebank.core_branch_scoping_update_request('{"enabled": true}', pg_temp.maker())$$,
                 'CB409', 'a branch_scoping.update of this platform is already awaiting approval',
                 'a second change while one is pending is 409');
SELECT is(corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM turn_on), pg_temp.checker(), 'go') ->> 'status',
          'APPROVED', 'a checker approves it');
SELECT is(pg_temp.enabled(), true, 'the approval turned it on');
SELECT is((SELECT result ->> 'enabled' FROM corebank.parked_changes WHERE id = (SELECT (r ->> 'id')::uuid FROM turn_on)),
          'true', 'the change records the applied flag as its result');

-- Off: a rejected change leaves it on; an approved one turns it off.
CREATE TEMP TABLE off_rejected AS
    SELECT corebank.core_branch_scoping_update_request('{"enabled": false}', pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'status' FROM off_rejected), 'PENDING', 'turning it off is parked');
SELECT is(corebank.core_approval_reject((SELECT (r ->> 'id')::uuid FROM off_rejected), pg_temp.checker(), 'not now')
              ->> 'status', 'REJECTED', 'and may be rejected');
SELECT is(pg_temp.enabled(), true, 'the rejection left it on');
CREATE TEMP TABLE turn_off AS
    SELECT corebank.parked_change_create('branch_scoping.update', 'platform', 'branch_scoping', '{"enabled": false}',
                                         'off', pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'status' FROM turn_off), 'PENDING', 'parked_change_create from psql parks "off" too');
SELECT is(pg_temp.enabled(), true, 'still on until approved');
SELECT is(corebank.parked_change_approve((SELECT (r ->> 'id')::uuid FROM turn_off), pg_temp.checker(), NULL) ->> 'status',
          'APPROVED', 'approved from psql');
SELECT is(pg_temp.enabled(), false, 'the approval turned it off');

-- Bad requests park nothing.
SELECT throws_ok($$SELECT corebank.core_branch_scoping_update_request('{"enabled": "yes"}', pg_temp.maker())$$,
                 'CBV00', NULL, 'a malformed enabled is a validation error');
SELECT throws_ok($$SELECT corebank.parked_change_create('branch_scoping.update', 'platform', 'branch_scoping',
                                                      '{"enabled": 1}', 'on', pg_temp.maker())$$,
                 'CBV00', 'enabled: must be true or false', 'so is a non-boolean payload from psql');
SELECT is(pg_temp.parked_scoping_changes(), 3::bigint, 'nothing more was parked');

-- An "on" change parked before 1.8, written as that release left it, is approved like any other.
CREATE TEMP TABLE old_on AS
    WITH parked AS (
        INSERT INTO corebank.parked_changes (operation, entity_type, entity_id, payload, summary, maker_id, expires_at)
        VALUES ('branch_scoping.update', 'platform', 'branch_scoping', '{"enabled": true}', 'Turn branch scoping on',
                pg_temp.maker(), now() + interval '72 hours')
        RETURNING id)
    SELECT id FROM parked;
SELECT is(corebank.core_approval_get((SELECT id FROM old_on)) ->> 'status', 'PENDING', 'an "on" change parked before 1.8');
SELECT is(corebank.core_approval_approve((SELECT id FROM old_on), pg_temp.checker(), NULL) ->> 'status', 'APPROVED',
          'is approved');
SELECT is(pg_temp.enabled(), true, 'and turns it on');

SELECT * FROM finish();
ROLLBACK;
