-- password_reset.sql: forgot, reset_begin, reset_finish.
--
-- Goal: forgot stores a reset token (hash) only for an ACTIVE account and
-- tells the tier what to send; a reset token is single use and expires; a
-- reset sets the hash, clears lockout, revokes every session, and retires the
-- user's other outstanding reset tokens; begin answers the current hash's
-- parameters and salt, never the hash, and finish refuses a new password
-- whose proof under them equals the current hash (the same password).
BEGIN;
SELECT plan(23);
\ir helpers/identity.sql

CREATE TEMP TABLE u AS
    SELECT pg_temp.uid(pg_temp.register('reset@example.com', NULL, 'rs-0')) AS id;
SELECT pg_temp.login((SELECT id FROM u), 'rs-1');
SELECT corebank.auth_client_create('branded', pg_temp.hash(), '{}', 'Branded', 'https://app.example/reset', 'Branded App');

-- forgot
SELECT is(corebank.auth_password_forgot(' Reset@Example.com', NULL, '198.51.100.1', pg_temp.tok('t1')),
          jsonb_build_object('rateLimited', false, 'send', true, 'userId', (SELECT id FROM u),
                             'recipient', 'reset@example.com', 'linkBase', NULL, 'appName', NULL),
          'forgot for an active account answers send with the recipient and no branding');
SELECT is((SELECT expires_at - created_at FROM corebank.auth_reset_tokens WHERE token_hash = pg_temp.tok('t1')),
          interval '30 minutes', 'the reset token lives 30 minutes');
SELECT is(corebank.auth_password_forgot('reset@example.com', 'branded', '198.51.100.1', pg_temp.tok('t2'))
              - 'userId',
          '{"rateLimited": false, "send": true, "recipient": "reset@example.com", "linkBase": "https://app.example/reset", "appName": "Branded App"}'::jsonb,
          'the client named by clientId brands the mail');
SELECT is(corebank.auth_password_forgot('reset@example.com', 'no-such-client', '198.51.100.2', pg_temp.tok('t3'))
              ->> 'linkBase', NULL, 'an unknown clientId falls back to the default branding');
SELECT is(corebank.auth_password_forgot('nobody@example.com', NULL, '198.51.100.3', pg_temp.tok('t4')),
          '{"rateLimited": false, "send": false}'::jsonb, 'an unknown email answers send false');
SELECT is((SELECT count(*) FROM corebank.auth_reset_tokens WHERE token_hash = pg_temp.tok('t4')), 0::bigint,
          'an unknown email stores no token');

-- reset_begin
SELECT is(corebank.auth_password_reset_begin(pg_temp.tok('t1')),
          jsonb_build_object('userId', (SELECT id FROM u),
                             'argon2', '{"m": 19456, "t": 2, "p": 1, "salt": "c2FsdHNhbHQ"}'::jsonb),
          'reset_begin answers the user and the current hash''s parameters and salt, never the hash');
SELECT throws_ok($$SELECT corebank.auth_password_reset_begin(pg_temp.tok('never-issued'))$$, 'CB400',
                 'Reset token is invalid, expired or already used', 'an unknown reset token is refused');

-- reset_finish
UPDATE corebank.auth_users SET locked_until = now() + interval '20 minutes', failed_attempts = 0
WHERE id = (SELECT id FROM u);
SELECT throws_ok($$SELECT corebank.auth_password_reset_finish(pg_temp.tok('t1'), pg_temp.hash(3), pg_temp.proof())$$,
                 'CBV00', 'newPassword: must differ from the current password',
                 'a new password whose proof equals the current hash is refused');
SELECT throws_ok($$SELECT corebank.auth_password_reset_finish(pg_temp.tok('t1'), pg_temp.hash(3), NULL)$$,
                 'CBV00', 'new_password_proof: is required', 'finish needs the new password''s proof');
SELECT lives_ok($$SELECT corebank.auth_password_reset_finish(pg_temp.tok('t1'), pg_temp.hash(7), pg_temp.proof(7))$$,
                'a valid reset token resets the password');
SELECT is((SELECT password_hash FROM corebank.auth_users WHERE id = (SELECT id FROM u)), pg_temp.hash(7),
          'the new hash is stored');
SELECT is((SELECT locked_until FROM corebank.auth_users WHERE id = (SELECT id FROM u)), NULL,
          'the reset clears the lockout');
SELECT is(pg_temp.live_sessions((SELECT id FROM u)), 0::bigint, 'the reset revokes every session');
SELECT is((SELECT count(*) FROM corebank.auth_sessions WHERE user_id = (SELECT id FROM u)
           AND revoked_reason = 'password_reset'), 2::bigint, 'with reason password_reset');

-- Single use, and the other outstanding tokens die with it.
SELECT throws_ok($$SELECT corebank.auth_password_reset_begin(pg_temp.tok('t1'))$$, 'CB400',
                 'Reset token is invalid, expired or already used', 'a used reset token is refused by begin');
SELECT throws_ok($$SELECT corebank.auth_password_reset_finish(pg_temp.tok('t1'), pg_temp.hash(8), pg_temp.proof(8))$$, 'CB400',
                 'Reset token is invalid, expired or already used', 'a used reset token is refused by finish');
SELECT throws_ok($$SELECT corebank.auth_password_reset_begin(pg_temp.tok('t2'))$$, 'CB400',
                 'Reset token is invalid, expired or already used', 'an older outstanding token is retired by the reset');

-- Expiry.
SELECT corebank.auth_password_forgot('reset@example.com', NULL, '198.51.100.4', pg_temp.tok('t5'));
UPDATE corebank.auth_reset_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = pg_temp.tok('t5');
SELECT throws_ok($$SELECT corebank.auth_password_reset_begin(pg_temp.tok('t5'))$$, 'CB400',
                 'Reset token is invalid, expired or already used', 'an expired reset token is refused by begin');
SELECT throws_ok($$SELECT corebank.auth_password_reset_finish(pg_temp.tok('t5'), pg_temp.hash(9), pg_temp.proof(9))$$, 'CB400',
                 'Reset token is invalid, expired or already used', 'an expired reset token is refused by finish');

-- Inactive accounts.
SELECT corebank.auth_password_forgot('reset@example.com', NULL, '198.51.100.5', pg_temp.tok('t6'));
UPDATE corebank.auth_users SET status = 'DEACTIVATED' WHERE id = (SELECT id FROM u);
SELECT throws_ok($$SELECT corebank.auth_password_reset_begin(pg_temp.tok('t6'))$$, 'CB400',
                 'Reset token is invalid, expired or already used', 'a deactivated account cannot reset');
SELECT is(corebank.auth_password_forgot('reset@example.com', NULL, '198.51.100.6', pg_temp.tok('t7')),
          '{"rateLimited": false, "send": false}'::jsonb, 'forgot for a deactivated account answers send false');

-- Input checks.
SELECT throws_ok($$SELECT corebank.auth_password_reset_finish(pg_temp.tok('t6'), 'new password', pg_temp.proof(9))$$, 'CBV00',
                 'new_password_hash: must be an argon2id encoded hash', 'a plaintext new password is refused');

SELECT * FROM finish();
ROLLBACK;
