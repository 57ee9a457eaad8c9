-- policy_staff.sql: policy_load and auth_staff_create.
--
-- Goal: the roles file is loaded idempotently into auth_role_scopes and a
-- malformed one is refused; staff identities get only roles that exist in the
-- policy, and the same uniqueness rules as customers.
BEGIN;
SELECT plan(13);
\ir helpers/identity.sql

SELECT is(corebank.policy_load('{"roles": {"teller": {"scopes": ["b", "a", "a"], "staff": true, "description": "T"}, "auditor_x": {"scopes": [], "staff": true}}}'),
          2, 'policy_load answers how many roles it loaded');
SELECT is((SELECT scopes FROM corebank.auth_role_scopes WHERE role = 'teller'), '{a,b}'::text[],
          'a role''s scopes are stored sorted and distinct (replacing the old ones)');
SELECT is((SELECT staff AND description IS NULL FROM corebank.auth_role_scopes WHERE role = 'auditor_x'), true,
          'staff flag and a missing description are stored');
SELECT is(corebank.policy_load('{"roles": {"teller": {"scopes": ["b", "a"], "staff": true, "description": "T"}}}'), 1,
          'loading again is an upsert');
SELECT is((SELECT count(*) FROM corebank.auth_role_scopes WHERE role = 'teller'), 1::bigint, 'no duplicate role rows');
SELECT throws_ok($$SELECT corebank.policy_load('{"version": 1}')$$, 'CBV00', 'policy: must have a "roles" object',
                 'a policy without roles is refused');
SELECT throws_ok($$SELECT corebank.policy_load('{"roles": {"x": {"scopes": "a", "staff": true}}}')$$, 'CBV00',
                 'policy: role ''x'': scopes must be an array of strings', 'scopes must be an array');
SELECT throws_ok($$SELECT corebank.policy_load('{"roles": {"Bad Role": {"scopes": [], "staff": true}}}')$$, 'CBV00',
                 'policy: invalid role name ''Bad Role''', 'role names are checked');

-- staff
CREATE TEMP TABLE staff AS
    SELECT corebank.auth_staff_create(' Sup@Example.com', NULL, pg_temp.hash(), 'S', 'V', '{supervisor,teller,teller}', 'HRE') AS id;
SELECT is((SELECT roles || ARRAY[email, branch_code] FROM corebank.auth_users WHERE id = (SELECT id FROM staff)),
          '{supervisor,teller,sup@example.com,HRE}'::text[], 'a staff user gets its roles (distinct), email and branch');
SELECT throws_ok($$SELECT corebank.auth_staff_create('w@example.com', NULL, pg_temp.hash(), NULL, NULL, '{teller,wizard}', NULL)$$,
                 'CBV00', 'roles: unknown role wizard (GET /v1/staff/roles)', 'an unknown role is refused, by name');
SELECT throws_ok($$SELECT corebank.auth_staff_create('sup@example.com', NULL, pg_temp.hash(), NULL, NULL, '{teller}', NULL)$$,
                 'CB409', 'An account with this email already exists; log in with that email', 'a taken email is a conflict');
SELECT throws_ok($$SELECT corebank.auth_staff_create('n@example.com', NULL, pg_temp.hash(), NULL, NULL, '{}', NULL)$$,
                 'CBV00', 'roles: is required', 'a staff user needs a role');
SELECT is(corebank.auth_login_begin('email', 'sup@example.com', NULL) ->> 'outcome', 'proceed',
          'a staff user logs in like anyone');

SELECT * FROM finish();
ROLLBACK;
