-- auth_suspension.sql: staff suspend and reinstate a user (docs/identity.md,
-- "Client administration and suspension"): who may (admin with a second
-- factor when staff_mfa_roles names admin, or compliance_officer), never
-- oneself, a reason required; suspending revokes every session in the same
-- transaction, so every token and refresh token stops; a suspended user's
-- right password answers "suspended", a wrong one what every locked account
-- answers, and neither is counted; both moves are audited.
BEGIN;
SELECT plan(38);
\ir helpers/identity.sql

CREATE TEMP TABLE a AS SELECT * FROM pg_temp.actor('admin@example.com', '{admin}', '{pwd,otp,mfa}');
CREATE TEMP TABLE weak AS SELECT * FROM pg_temp.actor('weak-admin@example.com', '{admin}', '{pwd}');
CREATE TEMP TABLE co AS SELECT * FROM pg_temp.actor('co@example.com', '{compliance_officer}', '{pwd}');
CREATE TEMP TABLE t AS SELECT * FROM pg_temp.actor('teller@example.com', '{teller,supervisor}', '{pwd,otp,mfa}');
SELECT (SELECT user_id FROM a) AS aid, (SELECT session_id FROM a) AS asid,
       (SELECT user_id FROM weak) AS wid, (SELECT session_id FROM weak) AS wsid,
       (SELECT user_id FROM co) AS cid, (SELECT session_id FROM co) AS csid,
       (SELECT user_id FROM t) AS tid, (SELECT session_id FROM t) AS tsid \gset

-- The user: three live sessions (registration and two logins).
CREATE TEMP TABLE reg AS SELECT pg_temp.register('user@example.com', NULL, 'user-r0') AS b;
SELECT pg_temp.uid(b) AS uid, pg_temp.jwt_part(b ->> 'accessToken', 2) ->> 'jti' AS jti FROM reg \gset
SELECT pg_temp.login(:'uid', 'user-r1') IS NOT NULL AS logged_in \gset
SELECT pg_temp.login(:'uid', 'user-r2') IS NOT NULL AS logged_in \gset
SELECT is(pg_temp.live_sessions(:'uid'), 3::bigint, 'the user has three live sessions');

-- Who may, and bad input: refused, nothing changed.
SELECT throws_ok(format('SELECT corebank.auth_user_suspend(%L, %L, %L, %L)', :'tid', :'tsid', :'uid', 'fraud'),
                 'CB403', 'Requires the role admin or compliance_officer', 'a teller and supervisor may not suspend');
SELECT throws_ok(format('SELECT corebank.auth_user_suspend(%L, %L, %L, %L)', :'wid', :'wsid', :'uid', 'fraud'),
                 'CB403', NULL, 'an admin without a second factor may not');
SELECT throws_ok(format('SELECT corebank.auth_user_suspend(%L, %L, %L, %L)', :'cid', :'csid', :'cid', 'me'),
                 'CB403', 'Nobody may suspend themselves', 'nobody suspends themselves');
SELECT throws_ok(format('SELECT corebank.auth_user_suspend(%L, %L, %L, %L)', :'cid', :'csid', :'uid', '   '),
                 'CBV00', 'reason: must be 1 to 500 characters', 'a blank reason is refused');
SELECT throws_ok(format('SELECT corebank.auth_user_suspend(%L, %L, %L, %L)', :'cid', :'csid', :'uid', repeat('x', 501)),
                 'CBV00', 'reason: must be 1 to 500 characters', 'a reason over 500 characters is refused');
SELECT throws_ok(format('SELECT corebank.auth_user_suspend(%L, %L, %L, NULL)', :'cid', :'csid', :'uid'),
                 'CBV00', 'reason: must be 1 to 500 characters', 'a missing reason is refused');
SELECT throws_ok(format('SELECT corebank.auth_user_suspend(%L, %L, %L, %L)', :'cid', :'csid', gen_random_uuid(), 'x'),
                 'CB404', 'No user has this id', 'an unknown user is 404');
SELECT is((SELECT status FROM corebank.auth_users WHERE id = :'uid'), 'ACTIVE', 'refusals changed no status');
SELECT is(pg_temp.live_sessions(:'uid'), 3::bigint, '... and revoked no session');
SELECT is((SELECT count(*) FROM corebank.auth_audit WHERE event IN ('suspended', 'reinstated')), 0::bigint,
          '... and audited no move');

-- A compliance officer (not in staff_mfa_roles) suspends.
SELECT is(corebank.auth_user_suspend(:'cid', :'csid', :'uid', 'Card fraud reported, case 77'),
          jsonb_build_object('userId', :'uid', 'status', 'SUSPENDED', 'revokedSessions', 3),
          'a compliance officer suspends; three sessions are revoked');
SELECT is((SELECT status FROM corebank.auth_users WHERE id = :'uid'), 'SUSPENDED', 'the user is SUSPENDED');
SELECT is(pg_temp.live_sessions(:'uid'), 0::bigint, 'no session of the user is live');
SELECT is((SELECT count(*) FROM corebank.auth_sessions WHERE user_id = :'uid' AND revoked_reason = 'suspended'),
          3::bigint, 'each was revoked as suspended');
SELECT is(corebank.auth_authenticate(:'jti') ->> 'active', 'false', 'an access token of the user stops at once');
SELECT is(corebank.auth_refresh(pg_temp.tok('user-r2'), pg_temp.tok('user-r3'), '10.0.0.3', 'pgtap') ->> 'outcome',
          'invalid', 'a refresh token of the user stops too');
SELECT is((SELECT detail FROM corebank.auth_audit WHERE event = 'suspended' AND user_id = :'uid'),
          jsonb_build_object('by', :'cid', 'reason', 'Card fraud reported, case 77', 'revokedSessions', 3),
          'the suspension is audited on the user with who and why');
SELECT throws_ok(format('SELECT corebank.auth_user_suspend(%L, %L, %L, %L)', :'aid', :'asid', :'uid', 'again'),
                 'CB409', 'Only an ACTIVE user can be suspended; this one is SUSPENDED', 'suspending twice is 409');

-- Login: the right password is told of the suspension, a wrong one is not; nothing counted.
SELECT is(corebank.auth_login_begin('email', 'user@example.com', NULL) ->> 'outcome', 'proceed',
          'login begin lets a suspended user prove the password');
SELECT is(corebank.auth_login_finish(:'uid', pg_temp.wrong_proof(), NULL, 'web', '10.0.0.4', 'pgtap',
                                     pg_temp.tok('user-w')),
          '{"outcome": "locked"}'::jsonb, 'a wrong password answers as any locked account does');
SELECT is(pg_temp.login(:'uid', 'user-r4'), '{"outcome": "suspended"}'::jsonb,
          'the right password answers suspended');
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = :'uid'), 0, 'neither attempt is counted');
SELECT is(pg_temp.live_sessions(:'uid'), 0::bigint, 'no session was opened');
SELECT is((SELECT detail FROM corebank.auth_audit WHERE event = 'login_failed' AND user_id = :'uid' ORDER BY id DESC LIMIT 1),
          '{"reason": "suspended"}'::jsonb, 'the refused login is audited as suspended');

-- Reinstate.
SELECT throws_ok(format('SELECT corebank.auth_user_reinstate(%L, %L, %L, %L)', :'tid', :'tsid', :'uid', 'ok'),
                 'CB403', 'Requires the role admin or compliance_officer', 'a teller may not reinstate');
SELECT throws_ok(format('SELECT corebank.auth_user_reinstate(%L, %L, %L, %L)', :'aid', :'asid', :'uid', ''),
                 'CBV00', 'reason: must be 1 to 500 characters', 'reinstating needs a reason');
SELECT is(corebank.auth_user_reinstate(:'aid', :'asid', :'uid', 'Case 77 closed: not fraud'),
          jsonb_build_object('userId', :'uid', 'status', 'ACTIVE', 'revokedSessions', 0),
          'an admin with a second factor reinstates');
SELECT is((SELECT detail FROM corebank.auth_audit WHERE event = 'reinstated' AND user_id = :'uid'),
          jsonb_build_object('by', :'aid', 'reason', 'Case 77 closed: not fraud'), 'the reinstatement is audited');
SELECT is(pg_temp.live_sessions(:'uid'), 0::bigint, 'no session comes back');
SELECT is(pg_temp.login(:'uid', 'user-r5') ->> 'outcome', 'ok', 'the user signs in again');
SELECT throws_ok(format('SELECT corebank.auth_user_reinstate(%L, %L, %L, %L)', :'aid', :'asid', :'uid', 'again'),
                 'CB409', 'Only a SUSPENDED user can be reinstated; this one is ACTIVE', 'reinstating an active user is 409');

SELECT pg_temp.uid(pg_temp.register('reader@example.com')) AS gid_reader \gset
-- One user read by staff (GET /admin/users/{id}): what auth_me shows, for the
-- same roles; nothing else.
SELECT is(corebank.auth_user_admin_get(:'cid', :'csid', :'gid_reader') - 'createdAt',
          corebank.auth_me(:'gid_reader') - 'createdAt', 'a compliance officer reads a user as auth_me shows it');
SELECT is(corebank.auth_user_admin_get(:'aid', :'asid', :'gid_reader') ->> 'status', 'ACTIVE', 'an admin too, with its status');
SELECT throws_ok(format('SELECT corebank.auth_user_admin_get(%L, %L, %L)', :'tid', :'tsid', :'gid_reader'),
                 'CB403', 'Requires the role admin or compliance_officer', 'a teller and supervisor may not read users');
SELECT throws_ok(format('SELECT corebank.auth_user_admin_get(%L, %L, %L)', :'aid', :'asid', gen_random_uuid()),
                 'CB404', 'User not found', 'an unknown id is 404');

-- A deactivated account stays deactivated.
SELECT pg_temp.uid(pg_temp.register('gone@example.com')) AS gid \gset
SELECT corebank.auth_deactivate(:'gid');
SELECT throws_ok(format('SELECT corebank.auth_user_suspend(%L, %L, %L, %L)', :'aid', :'asid', :'gid', 'x'),
                 'CB409', 'Only an ACTIVE user can be suspended; this one is DEACTIVATED', 'a deactivated user is not suspended');
SELECT is(corebank.auth_login_finish(:'gid', pg_temp.proof(), NULL, 'web', '10.0.0.4', 'pgtap', pg_temp.tok('gone-1')),
          '{"outcome": "locked"}'::jsonb, 'a deactivated user''s right password still answers locked');

SELECT * FROM finish();
ROLLBACK;
