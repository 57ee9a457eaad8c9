-- auth_password_proof.sql: the database, not the tier, decides whether a
-- password is right (issue 13, "Settings"; docs/architecture.md, "Trust
-- boundary between the tier and the database").
--
-- Goal: a session of corebank_app cannot finish a login without the
-- password: auth_login_finish takes the raw argon2id output (the proof) and
-- compares it with the stored hash itself, so a wrong or made-up 32-byte
-- proof issues nothing and counts a failure, a proof of another length is
-- refused, and only the right one logs in; no begin answer carries the
-- stored hash, only its parameters and salt; an identifier no account has
-- gets a stable salt of the same shape; the finish that took the tier's
-- verdict (password_ok bool) is gone. The same for the password re-entered by
-- change and deactivate, the reset (whose "same password" refusal is the
-- database's, password_reset.sql) and OAuth client authentication.
-- Method: register as the owner, then SET ROLE corebank_app for every call
-- the tier makes; proofs are the known raw hash parts of pg_temp.hash(n)
-- (helpers/identity.sql); counters read back as the owner.
BEGIN;
SELECT plan(36);
\ir helpers/identity.sql

SELECT pg_temp.register('proof@example.com', NULL, 'proof-0');
SELECT id AS proof_user, password_hash AS proof_stored,
       split_part(password_hash, '$', 6) AS proof_hash_part
FROM corebank.auth_users WHERE email = 'proof@example.com' \gset
SELECT corebank.auth_client_create('proof-svc', pg_temp.hash(7), '{kyc:screen}', 'Proof', NULL, NULL);
SELECT corebank.auth_password_forgot('proof@example.com', NULL, '198.51.100.9', pg_temp.tok('proof-reset'));
SELECT split_part(pg_temp.hash(7), '$', 6) AS client_hash_part, pg_temp.proof(7) AS client_proof,
       pg_temp.tok('proof-reset') AS reset_tok \gset
SELECT pg_temp.proof() AS right_proof, pg_temp.wrong_proof() AS wrong_proof,
       pg_temp.tok('proof-1') AS tok1, pg_temp.tok('proof-2') AS tok2, pg_temp.tok('proof-3') AS tok3 \gset

SET ROLE corebank_app;

-- begin: the parameters and salt, never the hash.
SELECT is(corebank.auth_login_begin('email', 'proof@example.com', NULL) -> 'argon2',
          '{"m": 19456, "t": 2, "p": 1, "salt": "c2FsdHNhbHQ"}'::jsonb,
          'login begin answers the stored hash''s parameters and salt');
SELECT is(position(:'proof_hash_part' IN corebank.auth_login_begin('email', 'proof@example.com', NULL)::text), 0,
          'login begin''s answer does not contain the stored hash');
SELECT ok(NOT corebank.auth_login_begin('email', 'proof@example.com', NULL) ? 'passwordHash',
          'login begin has no passwordHash member any more');

-- begin for an identifier no account has: the same shape, a stable salt.
SELECT is(corebank.auth_login_begin('email', 'nobody-proof@example.com', NULL) -> 'argon2',
          corebank.auth_login_begin('email', ' NOBODY-proof@Example.com', NULL) -> 'argon2',
          'an unknown email gets the same parameters and salt every time (normalised)');
SELECT is(length(decode(rpad(corebank.auth_login_begin('email', 'nobody-proof@example.com', NULL) -> 'argon2' ->> 'salt',
                             24, '='), 'base64')), 16,
          'its salt is 16 bytes, as a drawn one');
SELECT isnt(corebank.auth_login_begin('email', 'nobody-proof@example.com', NULL) -> 'argon2' ->> 'salt',
            corebank.auth_login_begin('email', 'other-proof@example.com', NULL) -> 'argon2' ->> 'salt',
            'another unknown email gets another salt');
SELECT is((corebank.auth_login_begin('email', 'nobody-proof@example.com', NULL) -> 'argon2') - 'salt'::text,
          '{"m": 19456, "t": 2, "p": 1}'::jsonb, 'and the parameters every account has');

-- finish: a wrong proof, a made-up one, then the right one.
SELECT is(corebank.auth_login_finish(:'proof_user', :'wrong_proof', NULL, 'web', '10.0.0.3', 'pgtap', :'tok1'),
          '{"outcome": "invalid"}'::jsonb, 'a wrong proof answers invalid');
SELECT is(corebank.auth_login_finish(:'proof_user', decode(repeat('00', 32), 'hex'), NULL, 'web', '10.0.0.3', 'pgtap',
                                     :'tok2'),
          '{"outcome": "invalid"}'::jsonb, 'a made-up 32-byte proof answers invalid');
SELECT throws_ok(format('SELECT corebank.auth_login_finish(%L, %L, NULL, NULL, NULL, NULL, %L)', :'proof_user',
                        substring(:'right_proof'::bytea FROM 1 FOR 31), :'tok3'),
                 'CBV00', 'password_proof: must be 32 bytes', 'a proof of 31 bytes is refused');
SELECT throws_ok(format('SELECT corebank.auth_login_finish(%L, NULL, NULL, NULL, NULL, NULL, %L)', :'proof_user',
                        :'tok3'),
                 'CBV00', 'password_proof: is required', 'a missing proof is refused');
RESET ROLE;
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = :'proof_user'), 2,
          'both wrong proofs are counted as failed logins');
SELECT is((SELECT count(*) FROM corebank.auth_refresh_tokens WHERE token_hash IN (:'tok1', :'tok2')), 0::bigint,
          'and issued no refresh token');
SET ROLE corebank_app;
SELECT is(corebank.auth_login_finish(:'proof_user', :'right_proof', NULL, 'web', '10.0.0.3', 'pgtap', :'tok3')
          ->> 'outcome', 'ok', 'the right proof logs in');
RESET ROLE;
SELECT is((SELECT count(*) FROM corebank.auth_refresh_tokens WHERE token_hash = :'tok3'), 1::bigint,
          'and issued its refresh token');
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = :'proof_user'), 0,
          'and reset the counter');

-- The password re-entered by change and deactivate.
SET ROLE corebank_app;
SELECT is(corebank.auth_password_reenter_begin(:'proof_user'),
          '{"outcome": "proceed", "argon2": {"m": 19456, "t": 2, "p": 1, "salt": "c2FsdHNhbHQ"}}'::jsonb,
          're-entry begin answers the parameters and salt, not the hash');
SELECT is(corebank.auth_password_reenter_finish(:'proof_user', :'wrong_proof', '10.0.0.3'),
          '{"outcome": "invalid"}'::jsonb, 'a wrong re-entry proof answers invalid');
SELECT throws_ok(format('SELECT corebank.auth_password_reenter_finish(%L, %L, NULL)', :'proof_user',
                        :'right_proof'::bytea || '\x00'::bytea),
                 'CBV00', 'password_proof: must be 32 bytes', 'a re-entry proof of 33 bytes is refused');
RESET ROLE;
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = :'proof_user'), 1,
          'the wrong re-entry is counted as a failed login');
SET ROLE corebank_app;
SELECT is(corebank.auth_password_reenter_finish(:'proof_user', :'right_proof', '10.0.0.3'),
          '{"outcome": "ok"}'::jsonb, 'the right re-entry proof answers ok');

-- The reset.
SELECT is(position(:'proof_hash_part' IN corebank.auth_password_reset_begin(:'reset_tok')::text), 0,
          'reset begin''s answer does not contain the current hash');
SELECT is(corebank.auth_password_reset_begin(:'reset_tok') -> 'argon2' ->> 'salt', 'c2FsdHNhbHQ',
          'but the current hash''s salt, for the proof of the new password');

-- OAuth client authentication.
SELECT is(position(:'client_hash_part' IN corebank.auth_client_auth_begin('proof-svc')::text), 0,
          'client begin''s answer does not contain the secret hash');
SELECT ok(NOT corebank.auth_client_auth_begin('proof-svc') ? 'secretHash', 'client begin has no secretHash member');
SELECT is(corebank.auth_client_auth_begin('ghost-proof-svc') -> 'argon2',
          corebank.auth_client_auth_begin('ghost-proof-svc') -> 'argon2',
          'an unknown client id gets the same parameters and salt every time');
SELECT isnt(corebank.auth_client_auth_begin('ghost-proof-svc') -> 'argon2' ->> 'salt',
            corebank.auth_login_begin('email', 'ghost-proof-svc', NULL) -> 'argon2' ->> 'salt',
            'a salt of its own, not the one a login of the same text gets');
SELECT is(corebank.auth_client_auth_finish('proof-svc', :'wrong_proof'), '{"outcome": "invalid"}'::jsonb,
          'a wrong secret proof answers invalid');
SELECT is(corebank.auth_client_auth_finish('proof-svc', decode(repeat('00', 32), 'hex')), '{"outcome": "invalid"}'::jsonb,
          'a made-up 32-byte secret proof answers invalid');
RESET ROLE;
SELECT is((SELECT failed_attempts FROM corebank.auth_login_failures WHERE identifier = 'client:proof-svc'), 2,
          'both are counted against the client id');
SET ROLE corebank_app;
SELECT is(corebank.auth_client_auth_finish('proof-svc', :'client_proof'), '{"outcome": "ok"}'::jsonb,
          'the right secret proof answers ok');
RESET ROLE;

-- The finish functions that took the tier's word are gone.
SELECT hasnt_function('corebank', 'auth_login_finish', ARRAY['uuid', 'boolean', 'text', 'text', 'text', 'text', 'bytea'],
                      'auth_login_finish(user_id, password_ok bool, ...) no longer exists');
SELECT hasnt_function('corebank', 'auth_password_reenter_finish', ARRAY['uuid', 'boolean', 'text'],
                      'auth_password_reenter_finish(user_id, password_ok bool, ip) no longer exists');
SELECT hasnt_function('corebank', 'auth_client_auth_finish', ARRAY['text', 'boolean'],
                      'auth_client_auth_finish(client_id, secret_ok bool) no longer exists');
-- Nor the functions that handed the app role a stored hash.
SELECT hasnt_function('corebank', 'auth_user_password_hash', ARRAY['uuid'],
                      'auth_user_password_hash (a user''s stored hash) no longer exists');
SELECT hasnt_function('corebank', 'auth_client_lookup', ARRAY['text'],
                      'auth_client_lookup (a client''s stored secret hash) no longer exists');

SELECT * FROM finish();
ROLLBACK;
