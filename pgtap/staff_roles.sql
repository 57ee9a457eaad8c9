-- staff_roles.sql: staff roles and their permissions in the database (issue 15).
--
-- Goal: the seeded roles are the role lists policies/core_operations.json
-- held before 1.8; a role is created and amended only with a valid key,
-- known permissions and (for a read-only role) read permissions only, and a
-- refusal writes nothing; every change leaves one append-only staff_audit row
-- (who, what, before, after, when); the tier's one authorization round trip
-- (core_authorize_lookup) answers the user's roles and permissions as they
-- are now. Method: call the API functions as the tier would and read the
-- tables.
BEGIN;
SELECT plan(48);
\ir helpers/identity.sql

CREATE FUNCTION pg_temp.perms(role_key text) RETURNS text[] LANGUAGE sql STABLE
    AS $f$ SELECT corebank_internal.staff_permissions_of(ARRAY[role_key]) $f$;
CREATE FUNCTION pg_temp.audit_rows() RETURNS bigint LANGUAGE sql STABLE
    AS $f$ SELECT count(*) FROM corebank.staff_audit WHERE action LIKE 'role.%' $f$;
CREATE FUNCTION pg_temp.rows() RETURNS bigint LANGUAGE sql STABLE
    AS $f$ SELECT (SELECT count(*) FROM corebank.staff_roles) * 100000
                  + (SELECT count(*) FROM corebank.staff_role_permissions) * 10
                  + (SELECT count(*) FROM corebank.staff_audit) $f$;
CREATE TEMP TABLE admin_user AS
SELECT pg_temp.uid(pg_temp.register('root@example.com')) AS id;
UPDATE corebank.auth_users SET roles = '{admin}' WHERE id = (SELECT id FROM admin_user);
-- A second admin stays, so that root's roles can be changed below (the last
-- active admin cannot be demoted: staff_identities.sql).
CREATE TEMP TABLE keeper AS SELECT pg_temp.uid(pg_temp.register('keeper@example.com')) AS id;
UPDATE corebank.auth_users SET roles = '{admin}' WHERE id = (SELECT id FROM keeper);
CREATE FUNCTION pg_temp.admin() RETURNS uuid LANGUAGE sql STABLE AS $f$ SELECT id FROM admin_user $f$;

-- The seed.
SELECT is((SELECT array_agg(key ORDER BY key) FROM corebank.staff_roles),
          ARRAY['admin', 'agent', 'auditor', 'branch_manager', 'compliance_officer', 'supervisor', 'teller'],
          'seven roles are seeded');
SELECT is((SELECT array_agg(key) FROM corebank.staff_roles WHERE read_only), ARRAY['auditor'], 'auditor is read-only');
SELECT is(pg_temp.perms('agent'), '{}'::text[], 'agent holds nothing until agency banking');
SELECT is((SELECT count(*) FROM corebank.staff_role_permissions rp JOIN corebank.staff_permissions p ON p.key = rp.permission_key
           WHERE rp.role_key = 'auditor' AND p.access = 'write'), 0::bigint, 'auditor holds no write permission');
SELECT ok('money.deposit' = ANY (pg_temp.perms('teller')) AND NOT 'accounts.activate' = ANY (pg_temp.perms('teller')),
          'teller deposits but does not activate accounts, as the policy file said');
SELECT ok('transaction.release:make' = ANY (pg_temp.perms('teller')) AND NOT 'transaction.release:check' = ANY (pg_temp.perms('teller')),
          'teller makes a journal but does not check one');
SELECT ok('staff.roles.update' = ANY (pg_temp.perms('admin')) AND NOT 'staff.roles.update' = ANY (pg_temp.perms('supervisor')),
          'only admin amends roles');
SELECT is(pg_temp.audit_rows(), 0::bigint, 'the seed is no change of a role');
SELECT is((SELECT jsonb_build_object('actor', actor_id, 'db_user', db_user = session_user, 'target', target,
                                     'before', before, 'after', after)
           FROM corebank.staff_audit WHERE action = 'user.roles' AND target = pg_temp.admin()::text),
          jsonb_build_object('actor', NULL, 'db_user', true, 'target', pg_temp.admin()::text,
                             'before', '{"roles": ["customer"]}'::jsonb, 'after', '{"roles": ["admin"]}'::jsonb),
          'a user''s roles changed in SQL are audited: the database login, before and after');

-- Create.
SELECT is(corebank.core_staff_role_create('{"key": "night_clerk", "name": " Night clerk ", "permissions": ["money.deposit", "accounts.get"]}',
                                          pg_temp.admin()) - 'createdAt' - 'updatedAt',
          '{"key": "night_clerk", "name": "Night clerk", "readOnly": false, "permissions": ["accounts.get", "money.deposit"]}'::jsonb,
          'a role is created with its sorted permissions');
SELECT is((SELECT jsonb_build_object('actor', actor_id = pg_temp.admin(), 'action', action, 'target', target,
                                     'before', before, 'after', after -> 'permissions', 'when', at = now())
           FROM corebank.staff_audit WHERE action LIKE 'role.%'),
          jsonb_build_object('actor', true, 'action', 'role.create', 'target', 'night_clerk', 'before', NULL,
                             'after', '["accounts.get", "money.deposit"]'::jsonb, 'when', true),
          'its creation is audited: who, what, before (none), after, when');
CREATE TEMP TABLE before_refusals AS SELECT pg_temp.rows() AS n;
SELECT throws_ok($$SELECT corebank.core_staff_role_create('{"key": "night_clerk", "name": "Again"}', pg_temp.admin())$$,
                 'CB409', 'role night_clerk already exists', 'a key taken is 409');
SELECT throws_ok($$SELECT corebank.core_staff_role_create('{"key": "Teller2", "name": "X"}', pg_temp.admin())$$,
                 'CBV00', NULL, 'an upper-case key is refused');
SELECT throws_ok($$SELECT corebank.core_staff_role_create('{"key": "x", "name": "X"}', pg_temp.admin())$$,
                 'CBV00', NULL, 'a one-character key is refused');
SELECT throws_ok($$SELECT corebank.core_staff_role_create('{"key": "1abc", "name": "X"}', pg_temp.admin())$$,
                 'CBV00', NULL, 'a key starting with a digit is refused');
SELECT throws_ok($$SELECT corebank.core_staff_role_create(jsonb_build_object('key', 'a' || repeat('b', 40), 'name', 'X'), pg_temp.admin())$$,
                 'CBV00', NULL, 'a 41-character key is refused');
SELECT throws_ok($$SELECT corebank.core_staff_role_create('{"key": "no_name"}', pg_temp.admin())$$,
                 'CBV00', 'name: is required (1 to 100 characters)', 'a name is required');
SELECT throws_ok($$SELECT corebank.core_staff_role_create('{"key": "bad_perm", "name": "X", "permissions": ["money.print"]}', pg_temp.admin())$$,
                 'CBV00', 'permissions: unknown permission money.print (GET /v1/staff/permissions)', 'an unknown permission is 400');
SELECT throws_ok($$SELECT corebank.core_staff_role_create('{"key": "bad_perm", "name": "X", "permissions": "money.deposit"}', pg_temp.admin())$$,
                 'CBV00', 'permissions: must be an array of permission keys', 'permissions must be an array');
SELECT throws_ok($$SELECT corebank.core_staff_role_create('{"key": "bad_perm", "name": "X", "permissions": [1]}', pg_temp.admin())$$,
                 'CBV00', 'permissions: must be an array of permission keys', 'of strings');
SELECT throws_ok($$SELECT corebank.core_staff_role_create('{"key": "peek", "name": "Peek", "readOnly": true, "permissions": ["accounts.get", "money.deposit"]}', pg_temp.admin())$$,
                 'CB422', 'role peek is read-only: it cannot hold the write permission money.deposit',
                 'a read-only role with a write permission is 422');
SELECT throws_ok($$SELECT corebank.core_staff_role_create('{"key": "no_actor", "name": "X"}', NULL)$$,
                 'CBV00', 'actor: is required', 'the actor is required');
SELECT is(pg_temp.rows(), (SELECT n FROM before_refusals), 'no refused creation wrote a role, a permission or an audit row');
SELECT is(corebank.core_staff_role_create('{"key": "peek", "name": "Peek", "readOnly": true, "permissions": ["accounts.get"]}',
                                          pg_temp.admin()) ->> 'readOnly', 'true', 'a read-only role with read permissions');

-- Update.
SELECT is(corebank.core_staff_role_update('night_clerk', '{"permissions": ["money.deposit", "money.withdraw"]}', pg_temp.admin())
          -> 'permissions', '["money.deposit", "money.withdraw"]'::jsonb, 'permissions given replace the set');
SELECT is((SELECT jsonb_build_object('before', before -> 'permissions', 'after', after -> 'permissions', 'name', after ->> 'name')
           FROM corebank.staff_audit WHERE action = 'role.update'),
          '{"before": ["accounts.get", "money.deposit"], "after": ["money.deposit", "money.withdraw"], "name": "Night clerk"}'::jsonb,
          'the amendment is audited with before and after');
SELECT is(corebank.core_staff_role_update('night_clerk', '{"name": "Night teller"}', pg_temp.admin()) -> 'permissions',
          '["money.deposit", "money.withdraw"]'::jsonb, 'a name alone keeps the permissions');
SELECT is(pg_temp.audit_rows(), 4::bigint, 'each change is one audit row (two creations, two amendments)');
SELECT is(corebank.core_staff_role_update('night_clerk', '{"name": "Night teller", "key": "night_clerk"}', pg_temp.admin()) ->> 'name',
          'Night teller', 'a body repeating the key is accepted');
SELECT is(pg_temp.audit_rows(), 4::bigint, 'an amendment that changes nothing is not audited');
CREATE TEMP TABLE before_updates AS SELECT pg_temp.rows() AS n;
SELECT throws_ok($$SELECT corebank.core_staff_role_update('day_clerk', '{"name": "X"}', pg_temp.admin())$$,
                 'CB404', 'Staff role not found', 'an unknown role is 404');
SELECT throws_ok($$SELECT corebank.core_staff_role_update('night_clerk', '{"key": "day_clerk"}', pg_temp.admin())$$,
                 'CB422', 'key: a role''s key cannot be changed', 'the key is immutable');
SELECT throws_ok($$SELECT corebank.core_staff_role_update('night_clerk', '{"readOnly": true}', pg_temp.admin())$$,
                 'CB422', 'readOnly: is set when a role is created and cannot be changed', 'readOnly is set once');
SELECT throws_ok($$SELECT corebank.core_staff_role_update('auditor', '{"permissions": ["accounts.get", "money.deposit"]}', pg_temp.admin())$$,
                 'CB422', 'role auditor is read-only: it cannot hold the write permission money.deposit',
                 'a write permission on auditor is 422');
SELECT throws_ok($$SELECT corebank.core_staff_role_update('night_clerk', '{"permissions": ["money.deposit", "nope"]}', pg_temp.admin())$$,
                 'CBV00', 'permissions: unknown permission nope (GET /v1/staff/permissions)', 'an unknown permission is 400');
SELECT throws_ok($$SELECT corebank.core_staff_role_update('night_clerk', '{"name": "  "}', pg_temp.admin())$$,
                 'CBV00', 'name: must not be blank', 'a blank name is refused');
SELECT is(pg_temp.rows(), (SELECT n FROM before_updates), 'no refused amendment wrote anything');
SELECT throws_ok($$INSERT INTO corebank.staff_role_permissions VALUES ('auditor', 'money.deposit')$$,
                 'CB422', NULL, 'psql meets the read-only rule too');

-- The audit trail is append-only and auditors read it.
SELECT throws_ok($$UPDATE corebank.staff_audit SET target = 'x'$$, NULL, NULL, 'staff_audit refuses UPDATE');
SELECT throws_ok($$DELETE FROM corebank.staff_audit$$, NULL, NULL, 'staff_audit refuses DELETE');
SELECT ok(has_table_privilege('corebank_auditor', 'corebank.staff_audit', 'SELECT'), 'corebank_auditor reads staff_audit');

-- The lists.
SELECT is(jsonb_array_length(corebank.core_staff_roles_list()), 9, 'the roles list has the seven seeded and two created');
SELECT is((SELECT count(*) FROM jsonb_array_elements(corebank.core_staff_permissions_list()) x(p)
           WHERE x.p ->> 'verb' = 'check'), (SELECT count(*) FROM corebank.staff_permissions WHERE verb = 'check'),
          'the permissions list shows the check permissions');

-- Authorization reads the roles of now: one round trip answers roles and permissions.
UPDATE corebank.auth_users SET roles = '{night_clerk}' WHERE id = (SELECT id FROM admin_user);
SELECT pg_temp.login(pg_temp.admin(), 'refresh-login');
CREATE FUNCTION pg_temp.staff() RETURNS jsonb LANGUAGE sql STABLE
    AS $f$ SELECT corebank.core_authorize_lookup(NULL, 'core',
                  (SELECT t.jti FROM corebank.auth_access_tokens t WHERE t.user_id = pg_temp.admin()
                   ORDER BY t.issued_at DESC LIMIT 1)) -> 'staff' $f$;
SELECT is(pg_temp.staff() -> 'roles', '["night_clerk"]'::jsonb, 'the lookup answers the user''s roles');
SELECT is(pg_temp.staff() -> 'permissions', '["money.deposit", "money.withdraw"]'::jsonb, 'and their permissions');
SELECT corebank.core_staff_role_update('night_clerk', '{"permissions": ["money.deposit"]}', pg_temp.admin());
SELECT is(pg_temp.staff() -> 'permissions', '["money.deposit"]'::jsonb, 'a permission withdrawn is gone on the next lookup');
UPDATE corebank.auth_users SET roles = '{peek}' WHERE id = (SELECT id FROM admin_user);
SELECT is(pg_temp.staff() -> 'permissions', '["accounts.get"]'::jsonb, 'a role changed acts on the next lookup');
SELECT is((SELECT count(*) FROM corebank.staff_audit WHERE action = 'user.roles' AND target = pg_temp.admin()::text),
          3::bigint, 'each change of the user''s roles is one audit row');

SELECT * FROM finish();
ROLLBACK;
