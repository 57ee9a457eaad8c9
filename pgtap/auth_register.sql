-- auth_register.sql: corebank.auth_register.
--
-- Goal: registration creates exactly one identity with a session, refresh
-- token and access token; a bad clientId writes nothing; email and phone are
-- unique (a phone with and without '+' is one number); inputs are checked.
BEGIN;
SELECT plan(24);
\ir helpers/identity.sql

-- A successful registration.
SELECT lives_ok($$SELECT pg_temp.register('  Ada@Example.COM ', '+263771234567', 'reg-1')$$,
                'registration with email and phone succeeds');
SELECT is((SELECT email FROM corebank.auth_users WHERE phone_key = '263771234567'), 'ada@example.com',
          'the email is stored trimmed and lower-cased');
SELECT is((SELECT phone FROM corebank.auth_users WHERE email = 'ada@example.com'), '+263771234567',
          'the phone is stored as registered');
SELECT is((SELECT roles FROM corebank.auth_users WHERE email = 'ada@example.com'), '{customer}'::text[],
          'a new identity has the role customer');
SELECT is((SELECT kyc_tier FROM corebank.auth_users WHERE email = 'ada@example.com'), 'NONE',
          'a new identity has KYC tier NONE');
SELECT is((SELECT count(*) FROM corebank.auth_sessions s JOIN corebank.auth_users u ON u.id = s.user_id
           WHERE u.email = 'ada@example.com' AND s.audience = 'corebank' AND s.channel = 'web'),
          1::bigint, 'one session with the default audience and the channel');
SELECT is((SELECT count(*) FROM corebank.auth_refresh_tokens WHERE token_hash = pg_temp.tok('reg-1')),
          1::bigint, 'the refresh token is stored by its hash');
SELECT is((SELECT count(*) FROM corebank.auth_audit a JOIN corebank.auth_users u ON u.id = a.user_id
           WHERE u.email = 'ada@example.com' AND a.event = 'register'), 1::bigint, 'the registration is audited');

-- The token block.
SELECT is((SELECT jsonb_object_keys_sorted FROM (SELECT array_agg(k ORDER BY k) AS jsonb_object_keys_sorted
           FROM jsonb_object_keys(pg_temp.register('block@example.com', NULL, 'reg-2')) AS k) AS keys),
          ARRAY['accessToken', 'expiresIn', 'sessionId', 'tokenType', 'user'],
          'the token block has accessToken, expiresIn, sessionId, tokenType, user');
SELECT is((SELECT corebank_internal.user_object(id) FROM corebank.auth_users WHERE email = 'block@example.com'),
          (SELECT jsonb_build_object('id', id, 'email', 'block@example.com', 'phone', NULL, 'firstName', 'Test',
                                     'lastName', 'User', 'kycTier', 'NONE', 'roles', '["customer"]'::jsonb,
                                     'emailVerified', false, 'phoneVerified', false)
           FROM corebank.auth_users WHERE email = 'block@example.com'),
          'the user object has every field, absent ones null, no contact verified at registration');

-- clientId: checked first, nothing written.
SELECT throws_ok($$SELECT pg_temp.register('client@example.com', NULL, 'reg-3', 'no-such-client')$$,
                 'CB400', 'Unknown clientId', 'an unknown clientId is refused');
SELECT is((SELECT count(*) FROM corebank.auth_users WHERE email = 'client@example.com'), 0::bigint,
          'an unknown clientId leaves no user');
SELECT corebank.auth_client_create('disabled-app', pg_temp.hash(), '{}', 'Disabled', NULL, NULL);
UPDATE corebank.auth_oauth_clients SET status = 'DISABLED' WHERE client_id = 'disabled-app';
SELECT throws_ok($$SELECT pg_temp.register('client@example.com', NULL, 'reg-3', 'disabled-app')$$,
                 'CB400', 'Unknown clientId', 'a disabled clientId is refused');

-- Duplicates.
SELECT throws_ok($$SELECT pg_temp.register('ADA@example.com', NULL, 'reg-4')$$, 'CB409',
                 'An account with this email already exists; log in with that email',
                 'a taken email (any case) is a conflict');
SELECT throws_ok($$SELECT pg_temp.register('other@example.com', '263771234567', 'reg-5')$$, 'CB409',
                 'An account with this phone number already exists; log in with that phone number',
                 'a taken phone without + is a conflict');
SELECT lives_ok($$SELECT pg_temp.register(NULL, '263770000001', 'reg-6')$$, 'a phone-only registration succeeds');
SELECT throws_ok($$SELECT pg_temp.register(NULL, '+263770000001', 'reg-7')$$, 'CB409',
                 'An account with this phone number already exists; log in with that phone number',
                 'a taken phone with + is a conflict');
SELECT is((SELECT count(*) FROM corebank.auth_users WHERE email = 'other@example.com'), 0::bigint,
          'a conflict leaves no user');

-- Input checks.
SELECT throws_ok($$SELECT pg_temp.register(NULL, NULL, 'reg-8')$$, 'CB400',
                 'Either an email or a phone number is required', 'email or phone is required');
SELECT throws_ok($$SELECT pg_temp.register('  ', NULL, 'reg-8')$$, 'CB400',
                 'Either an email or a phone number is required', 'a blank email counts as absent');
SELECT throws_ok($$SELECT pg_temp.register(NULL, '12345', 'reg-8')$$, 'CBV00',
                 'phone: must match ^\+?[0-9]{10,15}$', 'a malformed phone is refused');
SELECT throws_ok($$SELECT corebank.auth_register('p@example.com', NULL, 'hunter22', NULL, NULL, NULL, NULL, NULL,
                                                 NULL, pg_temp.tok('reg-9'))$$,
                 'CBV00', 'password_hash: must be an argon2id encoded hash', 'a plaintext password is refused');
SELECT throws_ok($$SELECT corebank.auth_register('p@example.com', NULL, pg_temp.hash(), NULL, NULL, NULL, NULL,
                                                 NULL, NULL, 'short'::bytea)$$,
                 'CBV00', 'refresh_token_hash: must be a SHA-256 hash (32 bytes)', 'the refresh token hash must be 32 bytes');
SELECT throws_ok($$SELECT corebank.auth_register('p@example.com', NULL, pg_temp.hash(), repeat('x', 101), NULL,
                                                 NULL, NULL, NULL, NULL, pg_temp.tok('reg-9'))$$,
                 'CBV00', 'firstName: must be at most 100 characters', 'names are bounded');

SELECT * FROM finish();
ROLLBACK;
