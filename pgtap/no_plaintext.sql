-- no_plaintext.sql: no table holds a plaintext password or token.
--
-- Goal: refresh, reset and access tokens handed to (or made for) the client
-- appear in no table, in any column, as text or as bytes; what is stored is
-- their SHA-256 (refresh, reset) or only the jti (access). Method: issue
-- tokens whose plaintext we know, then search every row of every corebank
-- table, as text and as hex.
BEGIN;
SELECT plan(8);
\ir helpers/identity.sql

CREATE TEMP TABLE issued AS
    SELECT pg_temp.register('secret@example.com', NULL, 'plaintext-refresh-token-one') ->> 'accessToken' AS access_token;
CREATE TEMP TABLE u AS SELECT id FROM corebank.auth_users WHERE email = 'secret@example.com';
INSERT INTO issued
    SELECT pg_temp.login((SELECT id FROM u), 'plaintext-refresh-token-two') -> 'tokens' ->> 'accessToken';
INSERT INTO issued
    SELECT corebank.auth_refresh(pg_temp.tok('plaintext-refresh-token-two'), pg_temp.tok('plaintext-refresh-token-three'),
                                 NULL, NULL) -> 'tokens' ->> 'accessToken';
SELECT corebank.auth_password_forgot('secret@example.com', NULL, '203.0.113.1', pg_temp.tok('plaintext-reset-token'));

-- Counts rows of any corebank table whose text form contains `needle`
-- (bytea columns appear as hex in a row's text form, so the hex is searched too).
CREATE FUNCTION pg_temp.occurrences(needle text) RETURNS bigint
    LANGUAGE plpgsql
    AS $f$
DECLARE
    table_name regclass;
    found bigint;
    total bigint := 0;
BEGIN
    FOR table_name IN SELECT c.oid FROM pg_class c
                      WHERE c.relnamespace = 'corebank'::regnamespace AND c.relkind = 'r' LOOP
        EXECUTE format('SELECT count(*) FROM %s t WHERE strpos(t::text, $1) > 0 OR strpos(t::text, $2) > 0', table_name)
            INTO found USING needle, encode(convert_to(needle, 'UTF8'), 'hex');
        total := total + found;
    END LOOP;
    RETURN total;
END
$f$;

SELECT is(pg_temp.occurrences('plaintext-refresh-token-one'), 0::bigint, 'the first refresh token is stored nowhere');
SELECT is(pg_temp.occurrences('plaintext-refresh-token-three'), 0::bigint, 'a rotated refresh token is stored nowhere');
SELECT is(pg_temp.occurrences('plaintext-reset-token'), 0::bigint, 'the reset token is stored nowhere');
SELECT is((SELECT sum(pg_temp.occurrences(access_token)) FROM issued), 0::numeric, 'no access token is stored');
SELECT is((SELECT count(*) FROM corebank.auth_refresh_tokens
           WHERE token_hash = convert_to('plaintext-refresh-token-one', 'UTF8')), 0::bigint,
          'the refresh token is not stored as bytes');
SELECT is((SELECT count(*) FROM corebank.auth_refresh_tokens
           WHERE token_hash = sha256(convert_to('plaintext-refresh-token-one', 'UTF8'))), 1::bigint,
          'the refresh token is stored as its SHA-256');
SELECT is((SELECT count(*) FROM corebank.auth_reset_tokens
           WHERE token_hash = sha256(convert_to('plaintext-reset-token', 'UTF8'))), 1::bigint,
          'the reset token is stored as its SHA-256');
SELECT throws_ok($$UPDATE corebank.auth_users SET password_hash = 'correct horse battery staple'
                   WHERE email = 'secret@example.com'$$,
                 '23514', NULL, 'the schema refuses a password_hash that is not argon2id');

SELECT * FROM finish();
ROLLBACK;
