-- staff_identities.sql: staff identities and their branch (issue 15).
--
-- Goal: a staff identity is made with a unique username (the email unless
-- given), known staff roles and an existing branch, and no password: its
-- login fails as a wrong password does (counted, begin answers a salt as
-- for an unknown account) until the set-password link (a reset token) is
-- used; nobody changes their own roles, status or branch; the last active
-- admin is neither disabled nor demoted; disabling revokes every session;
-- every change is one staff_audit row with its actor, and a refusal writes
-- nothing. Method: call the API functions as corebank_app, as the tier does,
-- and read the tables.
BEGIN;
SELECT plan(52);
\ir helpers/identity.sql

-- Only this test's admins are active admins.
UPDATE corebank.auth_users SET status = 'SUSPENDED' WHERE 'admin' = ANY (roles) AND status = 'ACTIVE';
SELECT corebank.auth_staff_create('root-k@example.com', NULL, pg_temp.hash(), 'Root', 'K', '{admin}', NULL) AS root \gset
SELECT corebank.auth_staff_create('second-k@example.com', NULL, pg_temp.hash(), 'Second', 'K', '{admin,teller}', 'HRE') AS second \gset
CREATE FUNCTION pg_temp.rows() RETURNS bigint LANGUAGE sql STABLE SECURITY DEFINER
    AS $f$ SELECT (SELECT count(*) FROM corebank.auth_users) * 1000000 + (SELECT count(*) FROM corebank.staff_audit) * 1000
                  + (SELECT count(*) FROM corebank.auth_reset_tokens) $f$;
SELECT pg_temp.rows() AS rows0 \gset

-- The CLI's function: username the email, any staff role, the branch checked.
SELECT is((SELECT username FROM corebank.auth_users WHERE id = :'root'), 'root-k@example.com',
          'staff create: the username is the email');
SELECT lives_ok($$SELECT corebank.auth_staff_create('night-k@example.com', NULL, pg_temp.hash(), NULL, NULL, '{auditor,agent}', NULL)$$,
                'staff create accepts any role of staff_roles (auditor, agent)');
SELECT throws_ok($$SELECT corebank.auth_staff_create('x-k@example.com', NULL, pg_temp.hash(), NULL, NULL, '{wizard}', NULL)$$,
                 'CBV00', 'roles: unknown role wizard (GET /v1/staff/roles)', 'staff create refuses a role staff_roles lacks');
SELECT throws_ok($$SELECT corebank.auth_staff_create('x-k@example.com', NULL, pg_temp.hash(), NULL, NULL, '{teller}', 'NOPE')$$,
                 'CB404', 'branchCode: no branch has this code', 'staff create refuses an unknown branch');
SELECT throws_ok($$UPDATE corebank.auth_users SET branch_code = 'NOPE' WHERE id = $$ || quote_literal(:'root'),
                 '23503', NULL, 'the branch is a foreign key, whoever writes');
SELECT is((SELECT username FROM corebank.auth_users WHERE email IS NULL LIMIT 1) IS NULL
          OR (SELECT bool_and(username = phone OR username = id::text) FROM corebank.auth_users WHERE email IS NULL), true,
          'a user without an email is named by its phone or its id');
SELECT pg_temp.rows() AS rows0 \gset

SET ROLE corebank_app;
-- Create: no password, a set-password link of 72 hours.
SELECT is(corebank.core_staff_identity_create('{"email": "Ann.Teller@Example.com", "displayName": " Ann Teller ", "roles": ["teller", "teller"], "branchCode": "BYO"}',
                                              :'root', pg_temp.tok('set-ann'))
          - 'id' - 'createdAt' - 'updatedAt',
          '{"username": "ann.teller@example.com", "email": "ann.teller@example.com", "phone": null, "displayName": "Ann Teller",
            "roles": ["teller"], "status": "ACTIVE", "branchCode": "BYO", "passwordSet": false, "setPasswordLinkHours": 72}'::jsonb,
          'an identity is created: username the email, roles deduplicated, no password');
RESET ROLE;
SELECT id AS ann FROM corebank.auth_users WHERE username = 'ann.teller@example.com' \gset
SELECT is((SELECT password_hash FROM corebank.auth_users WHERE id = :'ann'), NULL, 'it has no password hash');
SELECT ok((SELECT expires_at BETWEEN now() + interval '71 hours' AND now() + interval '73 hours'
           FROM corebank.auth_reset_tokens WHERE token_hash = pg_temp.tok('set-ann')),
          'its set-password link is a reset token valid 72 hours');
SELECT is((SELECT jsonb_build_object('actor', actor_id = :'root'::uuid, 'before', before, 'username', after ->> 'username')
           FROM corebank.staff_audit WHERE action = 'user.create' AND target = :'ann'),
          jsonb_build_object('actor', true, 'before', NULL, 'username', 'ann.teller@example.com'),
          'the creation is audited with its actor');

SET ROLE corebank_app;
SELECT is(corebank.core_staff_identity_create('{"email": "bob@example.com", "username": "Bob.K", "roles": ["supervisor"]}',
                                              :'root', pg_temp.tok('set-bob')) ->> 'username', 'bob.k',
          'a given username is used (in lower case)');
SELECT pg_temp.rows() AS rows1 \gset
-- Refusals write nothing.
SELECT throws_ok(format('SELECT corebank.core_staff_identity_create(%L, %L, %L)',
                        '{"email": "carl@example.com", "roles": ["wizard"]}', :'root', pg_temp.tok('c1')),
                 'CBV00', 'roles: unknown role wizard (GET /v1/staff/roles)', 'an unknown role is refused');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_create(%L, %L, %L)',
                        '{"email": "carl@example.com", "roles": []}', :'root', pg_temp.tok('c1')),
                 'CBV00', 'roles: is required', 'no role is refused');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_create(%L, %L, %L)',
                        '{"email": "ANN.teller@example.com", "username": "ann2", "roles": ["teller"]}', :'root', pg_temp.tok('c1')),
                 'CB409', 'An account with this email already exists; log in with that email', 'a duplicate email is 409');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_create(%L, %L, %L)',
                        '{"email": "carl@example.com", "username": "bob.k", "roles": ["teller"]}', :'root', pg_temp.tok('c1')),
                 'CB409', 'username: another identity has this username', 'a duplicate username is 409');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_create(%L, %L, %L)',
                        '{"email": "carl@example.com", "username": "no spaces", "roles": ["teller"]}', :'root', pg_temp.tok('c1')),
                 'CBV00', 'username: must be 3 to 254 characters: lower-case letters, digits, . _ @ + -', 'a bad username is refused');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_create(%L, %L, %L)',
                        '{"email": "carl@example.com", "roles": ["teller"], "branchCode": "NOPE"}', :'root', pg_temp.tok('c1')),
                 'CB404', 'branchCode: no branch has this code', 'an unknown branch is 404');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_create(%L, %L, %L)',
                        '{"roles": ["teller"]}', :'root', pg_temp.tok('c1')),
                 'CBV00', 'email: is required', 'the email is required');
SELECT is(pg_temp.rows(), :'rows1'::bigint, 'the refused creations wrote nothing');

-- Login without a password: as a wrong password, counted; begin as for an unknown account.
SELECT is((corebank.auth_login_begin('email', 'ann.teller@example.com', NULL) -> 'argon2') - 'salt',
          '{"m": 19456, "t": 2, "p": 1}'::jsonb, 'login begin answers parameters and a salt for the passwordless identity');
SELECT is(corebank.auth_login_finish(:'ann', pg_temp.proof(), NULL, 'web', '10.0.0.3', 'pgtap', pg_temp.tok('ann-1')),
          '{"outcome": "invalid"}'::jsonb, 'its login answers invalid, as a wrong password');
RESET ROLE;
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = :'ann'), 1, 'and is counted');

-- The set-password link is the reset flow.
SET ROLE corebank_app;
SELECT is(corebank.auth_password_reset_begin(pg_temp.tok('set-ann')) ->> 'userId', :'ann', 'the link opens the reset flow');
SELECT lives_ok(format('SELECT corebank.auth_password_reset_finish(%L, %L, %L)', pg_temp.tok('set-ann'), pg_temp.hash(3),
                       pg_temp.proof(3)), 'the password is set through it');
SELECT is(corebank.auth_login_finish(:'ann', pg_temp.proof(3), NULL, 'web', '10.0.0.3', 'pgtap', pg_temp.tok('ann-2')) ->> 'outcome',
          'ok', 'then login works');
RESET ROLE;

-- Lists and updates.
SET ROLE corebank_app;
SELECT ok((SELECT array_agg(x ->> 'username') FROM jsonb_array_elements(corebank.core_staff_identities_list()) x)
          @> ARRAY['ann.teller@example.com', 'bob.k', 'root-k@example.com'], 'the list names the staff identities');
SELECT ok(NOT EXISTS (SELECT FROM jsonb_array_elements(corebank.core_staff_identities_list()) x
                      WHERE x -> 'roles' = '["customer"]'), 'and no customer');
SELECT pg_temp.rows() AS rows2 \gset
SELECT throws_ok(format('SELECT corebank.core_staff_identity_update(%L, %L, %L)', 'nobody.k', '{"displayName": "X"}', :'root'),
                 'CB404', 'Staff identity not found', 'an unknown username is 404');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_update(%L, %L, %L)', 'root-k@example.com', '{"roles": ["teller"]}', :'root'),
                 'CB403', 'Nobody changes their own roles or status', 'nobody changes their own roles');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_update(%L, %L, %L)', 'root-k@example.com', '{"status": "DISABLED"}', :'root'),
                 'CB403', 'Nobody changes their own roles or status', 'nor their own status');
SELECT throws_ok(format('SELECT corebank.core_staff_branch_set(%L, %L, %L)', :'root', '{"branchCode": "HRE"}', :'root'),
                 'CB403', 'Nobody changes their own branch', 'nor their own branch');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_update(%L, %L, %L)', 'bob.k', '{"roles": ["wizard"]}', :'root'),
                 'CBV00', 'roles: unknown role wizard (GET /v1/staff/roles)', 'an update to an unknown role is refused');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_update(%L, %L, %L)', 'bob.k', '{"status": "GONE"}', :'root'),
                 'CBV00', 'status: must be ACTIVE or DISABLED', 'an unknown status is refused');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_update(%L, %L, %L)', 'bob.k', '{"email": "ann.teller@example.com"}', :'root'),
                 'CB409', 'email: another identity has this email', 'another identity''s email is 409');
SELECT is(pg_temp.rows(), :'rows2'::bigint, 'the refused updates wrote nothing');

-- The last active admin: second demoted by root, then root cannot be disabled or demoted by second.
SELECT is(corebank.core_staff_identity_update('second-k@example.com', '{"roles": ["teller"]}', :'root') -> 'roles',
          '["teller"]'::jsonb, 'an admin demotes another admin while one stays');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_update(%L, %L, %L)', 'root-k@example.com', '{"status": "DISABLED"}', :'second'),
                 'CB422', 'The last active admin cannot be disabled or demoted', 'the last active admin is not disabled');
SELECT throws_ok(format('SELECT corebank.core_staff_identity_update(%L, %L, %L)', 'root-k@example.com', '{"roles": ["teller"]}', :'second'),
                 'CB422', 'The last active admin cannot be disabled or demoted', 'nor demoted');
RESET ROLE;
SELECT is((SELECT jsonb_build_object('actor', actor_id = :'root'::uuid, 'before', before -> 'roles', 'after', after -> 'roles')
           FROM corebank.staff_audit WHERE action = 'user.update' AND target = :'second'),
          jsonb_build_object('actor', true, 'before', '["admin", "teller"]'::jsonb, 'after', '["teller"]'::jsonb),
          'the demotion is audited with its actor, before and after');

-- The rule is the table's, not only the function's: the identity service's
-- suspension and deactivation and a DBA in psql meet it too.
SELECT throws_ok(format('UPDATE corebank.auth_users SET status = %L WHERE id = %L', 'SUSPENDED', :'root'),
                 'CB422', 'The last active admin cannot be disabled or demoted',
                 'a direct UPDATE cannot suspend the last active admin');
SELECT throws_ok(format('UPDATE corebank.auth_users SET roles = %L WHERE id = %L', '{teller}', :'root'),
                 'CB422', 'The last active admin cannot be disabled or demoted',
                 'nor demote it');

-- Disabling revokes every session at once.
SELECT ok(pg_temp.live_sessions(:'ann') > 0, 'ann has a live session');
SET ROLE corebank_app;
SELECT is(corebank.core_staff_identity_update('ann.teller@example.com', '{"status": "DISABLED"}', :'root') ->> 'status',
          'DISABLED', 'an identity is disabled');
RESET ROLE;
SELECT is(pg_temp.live_sessions(:'ann'), 0::bigint, 'every session of it is revoked in the same transaction');
SELECT is((SELECT status FROM corebank.auth_users WHERE id = :'ann'), 'SUSPENDED', 'stored as the identity service''s SUSPENDED');

-- Branch: get, null for head office, unknown 404, audited.
SET ROLE corebank_app;
SELECT is(corebank.core_staff_branch_get(:'ann') - 'identityId',
          '{"username": "ann.teller@example.com", "branchCode": "BYO", "branchName": "Bulawayo", "headOffice": false}'::jsonb,
          'an identity''s branch');
SELECT is(corebank.core_staff_branch_set(:'ann', '{"branchCode": null}', :'root') - 'identityId',
          '{"username": "ann.teller@example.com", "branchCode": null, "branchName": null, "headOffice": true}'::jsonb,
          'null assigns head office');
SELECT throws_ok(format('SELECT corebank.core_staff_branch_set(%L, %L, %L)', :'ann', '{"branchCode": "NOPE"}', :'root'),
                 'CB404', 'Branch not found', 'an unknown branch is 404');
SELECT throws_ok(format('SELECT corebank.core_staff_branch_set(%L, %L, %L)', :'ann', '{}', :'root'),
                 'CBV00', 'branchCode: is required: a branch code, or null for head office', 'the member is required');
SELECT throws_ok(format('SELECT corebank.core_staff_branch_get(%L)', gen_random_uuid()),
                 'CB404', 'Staff identity not found', 'an unknown identity is 404');
RESET ROLE;
SELECT is((SELECT jsonb_build_object('actor', actor_id = :'root'::uuid, 'before', before, 'after', after)
           FROM corebank.staff_audit WHERE action = 'user.branch' AND target = :'ann'),
          jsonb_build_object('actor', true, 'before', '{"branchCode": "BYO"}'::jsonb, 'after', '{"branchCode": null}'::jsonb),
          'the branch change is audited');
SELECT throws_ok($$DELETE FROM corebank.staff_audit WHERE action = 'user.branch'$$, NULL, NULL, 'the audit is append-only');

SELECT * FROM finish();
ROLLBACK;
