-- helpers/identity.sql: pg_temp helpers shared by the identity tests
-- (included with \ir inside each test's transaction; gone at ROLLBACK).
--
-- The database never sees a password: password_hash values are fixed PHC
-- strings whose raw hash part is known, and a test proves a password by
-- sending that raw part, as the tier sends the raw argon2id output it
-- computed (core/password_proof.hpp; the real hashing is the e2e tests').
-- Tokens are plaintext strings in the tests; the functions only ever
-- receive their SHA-256, as the tier sends them.

-- The raw 32-byte hash of pg_temp.hash(n): the proof of "password n".
CREATE FUNCTION pg_temp.proof(n int DEFAULT 0) RETURNS bytea
    LANGUAGE sql IMMUTABLE
    AS $f$ SELECT sha256(convert_to('pgtap password ' || n::text, 'UTF8')) $f$;

-- A 32-byte proof no stored hash holds: a wrong password.
CREATE FUNCTION pg_temp.wrong_proof() RETURNS bytea
    LANGUAGE sql IMMUTABLE
    AS $f$ SELECT sha256(convert_to('pgtap wrong password', 'UTF8')) $f$;

-- An argon2id PHC string (salt "saltsalt"); n makes distinct ones.
CREATE FUNCTION pg_temp.hash(n int DEFAULT 0) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $f$ SELECT '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$' || rtrim(encode(pg_temp.proof(n), 'base64'), '=') $f$;

-- SHA-256 of a plaintext token, as the tier computes it.
CREATE FUNCTION pg_temp.tok(plaintext text) RETURNS bytea
    LANGUAGE sql IMMUTABLE
    AS $f$ SELECT sha256(convert_to(plaintext, 'UTF8')) $f$;

-- Registers with defaults; the refresh token is the plaintext `token`.
CREATE FUNCTION pg_temp.register(email text, phone text DEFAULT NULL, token text DEFAULT NULL,
                                 client text DEFAULT NULL) RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.auth_register(email, phone, pg_temp.hash(), 'Test', 'User', client, 'web', '10.0.0.1',
                                  'pgtap', pg_temp.tok(coalesce(token, 'refresh-' || coalesce(email, phone))))
$f$;

-- The user id of a registration's token block.
CREATE FUNCTION pg_temp.uid(block jsonb) RETURNS uuid
    LANGUAGE sql IMMUTABLE
    AS $f$ SELECT (block -> 'user' ->> 'id')::uuid $f$;

-- login_finish with the proof of the password registered (pg_temp.hash()).
CREATE FUNCTION pg_temp.login(user_id uuid, token text, client text DEFAULT NULL) RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.auth_login_finish(user_id, pg_temp.proof(), client, 'mobile', '10.0.0.2', 'pgtap',
                                      pg_temp.tok(token))
$f$;

-- Decodes segment `part` (1 header, 2 payload) of a compact JWS.
CREATE FUNCTION pg_temp.jwt_part(token text, part int) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    AS $f$
    SELECT convert_from(decode(rpad(translate(split_part(token, '.', part), '-_', '+/'),
                                    ((length(split_part(token, '.', part)) + 3) / 4) * 4, '='),
                               'base64'), 'UTF8')::jsonb
$f$;

-- Live sessions of a user.
CREATE FUNCTION pg_temp.live_sessions(user_id uuid) RETURNS bigint
    LANGUAGE sql
    AS $f$
    SELECT count(*) FROM corebank.auth_sessions s
    WHERE s.user_id = live_sessions.user_id AND s.revoked_at IS NULL AND s.expires_at > now()
$f$;

-- A staff actor: a registered user given `roles`, its one session signed in with
-- `amr` (the staff admin functions take the user and the session).
CREATE FUNCTION pg_temp.actor(email text, roles text[], amr text[]) RETURNS TABLE (user_id uuid, session_id uuid)
    LANGUAGE plpgsql
    AS $f$
DECLARE
    uid uuid := pg_temp.uid(pg_temp.register(email));
BEGIN
    UPDATE corebank.auth_users u SET roles = actor.roles WHERE u.id = uid;
    UPDATE corebank.auth_sessions s SET amr = actor.amr WHERE s.user_id = uid;
    RETURN QUERY SELECT uid, (SELECT s.id FROM corebank.auth_sessions s WHERE s.user_id = uid);
END
$f$;
