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
-- verdict (password_ok bool) is gone.
-- Method: register as the owner, then SET ROLE corebank_app for every call
-- the tier makes; proofs are the known raw hash parts of pg_temp.hash(n)
-- (helpers/identity.sql); counters read back as the owner.
BEGIN;
SELECT plan(17);
\ir helpers/identity.sql

SELECT pg_temp.register('proof@example.com', NULL, 'proof-0');
SELECT id AS proof_user, password_hash AS proof_stored,
       split_part(password_hash, '$', 6) AS proof_hash_part
FROM corebank.auth_users WHERE email = 'proof@example.com' \gset
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

-- The finish that took the tier's word is gone.
SELECT hasnt_function('corebank', 'auth_login_finish', ARRAY['uuid', 'boolean', 'text', 'text', 'text', 'text', 'bytea'],
                      'auth_login_finish(user_id, password_ok bool, ...) no longer exists');

SELECT * FROM finish();
ROLLBACK;
