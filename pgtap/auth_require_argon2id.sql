-- auth_require_argon2id.sql: corebank_internal.auth_require_argon2id (1.7),
-- the one SQL check that a password or client-secret hash is argon2id, and
-- since 1.8 the rule it applies, auth_password_hash_valid (the C++ rule of
-- auth_register and the password reset).
--
-- Goal: NULL, a hash of another scheme and one over 512 characters are
-- refused with CBV00 naming the argument; so is a bare "$argon2id$" prefix
-- (as the C functions always refused it); an argon2id PHC string passes; the
-- client, staff and password-change functions refuse as before; the tier
-- cannot call either function. Method: direct calls, then through the callers.
BEGIN;
SELECT plan(12);
\ir helpers/identity.sql

SELECT throws_ok($$SELECT corebank_internal.auth_require_argon2id(NULL, 'secret_hash')$$,
                 'CBV00', 'secret_hash: must be an argon2id encoded hash', 'a NULL hash is refused');
SELECT throws_ok($$SELECT corebank_internal.auth_require_argon2id('$2b$12$abcdefghijklmnopqrstuv', 'password_hash')$$,
                 'CBV00', 'password_hash: must be an argon2id encoded hash', 'a bcrypt hash is refused');
SELECT throws_ok(format('SELECT corebank_internal.auth_require_argon2id(%L, %L)', pg_temp.hash() || repeat('x', 500),
                        'new_password_hash'),
                 'CBV00', 'new_password_hash: must be an argon2id encoded hash', 'a hash over 512 characters is refused');
SELECT lives_ok(format('SELECT corebank_internal.auth_require_argon2id(%L, %L)', pg_temp.hash(), 'password_hash'),
                'an argon2id PHC string passes');
SELECT throws_ok($$SELECT corebank_internal.auth_require_argon2id('$argon2id$', 'password_hash')$$,
                 'CBV00', 'password_hash: must be an argon2id encoded hash', 'a bare $argon2id$ prefix is refused');
SELECT is(corebank_internal.auth_password_hash_valid('$argon2id$'), false,
          'auth_password_hash_valid: the prefix alone is not a hash');
SELECT is(corebank_internal.auth_password_hash_valid(pg_temp.hash()), true,
          'auth_password_hash_valid: a PHC string is');
SELECT throws_ok($$SELECT corebank.auth_client_create('svc', 'plain', '{}', NULL, NULL, NULL)$$,
                 'CBV00', 'secret_hash: must be an argon2id encoded hash', 'auth_client_create refuses as before');
SELECT throws_ok($$SELECT corebank.auth_staff_create('staff@example.com', NULL, 'plain', 'A', 'B', '{teller}', NULL)$$,
                 'CBV00', 'password_hash: must be an argon2id encoded hash', 'auth_staff_create refuses as before');
SELECT throws_ok(format('SELECT corebank.auth_password_change(%L, %L)', gen_random_uuid(), 'plain'),
                 'CBV00', 'new_password_hash: must be an argon2id encoded hash',
                 'auth_password_change refuses as before, before it looks for the user');

SELECT is(has_function_privilege('corebank_app', 'corebank_internal.auth_require_argon2id(text,text)'::regprocedure,
                                 'EXECUTE'),
          false, 'the tier cannot call it');
SELECT is(has_function_privilege('corebank_app', 'corebank_internal.auth_password_hash_valid(text)'::regprocedure,
                                 'EXECUTE'),
          false, 'nor the rule it applies');

SELECT * FROM finish();
ROLLBACK;
