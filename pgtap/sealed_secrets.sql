-- sealed_secrets.sql: the RS256 private keys are stored only sealed under the
-- root key (issue 13, "Signing keys at rest"; docs/security.md, "Sealed
-- secrets and the root key").
--
-- Goal: no PEM private key appears in any column of any corebank table, as
-- text or as bytes; the stored value is a sealed blob that signs only as
-- itself: one changed byte, or the bytes copied onto another key, and signing
-- fails with a clear error instead of falling back to anything. (Without the
-- root key file at all, or under another one, is tests/e2e/test_sealed_secrets.py:
-- a session cannot change corebank.root_key_file.)
-- Method: a fresh key (rotation), not yet opened by this backend, whose
-- sealed bytes are changed, restored and copied inside this transaction.
BEGIN;
SELECT plan(17);
\ir helpers/identity.sql

-- Counts rows of any table of the extension's schemas whose text form holds
-- `needle` (bytea columns appear as hex in a row's text form: searched too).
CREATE FUNCTION pg_temp.occurrences(needle text) RETURNS bigint
    LANGUAGE plpgsql
    AS $f$
DECLARE
    table_name regclass;
    found bigint;
    total bigint := 0;
BEGIN
    FOR table_name IN SELECT c.oid FROM pg_class c
                      WHERE c.relnamespace IN ('corebank'::regnamespace, 'corebank_internal'::regnamespace)
                        AND c.relkind = 'r' LOOP
        EXECUTE format('SELECT count(*) FROM %s t WHERE strpos(t::text, $1) > 0 OR strpos(t::text, $2) > 0', table_name)
            INTO found USING needle, encode(convert_to(needle, 'UTF8'), 'hex');
        total := total + found;
    END LOOP;
    RETURN total;
END
$f$;

SELECT hasnt_column('corebank', 'auth_signing_keys', 'private_key_pem', 'auth_signing_keys has no plaintext PEM column');
SELECT col_type_is('corebank', 'auth_signing_keys', 'private_key_sealed', 'bytea',
                   'auth_signing_keys keeps the private key sealed, as bytes');
SELECT is(corebank_internal.auth_root_key_problem(), NULL, 'this server loads its root key');
SELECT results_eq($$SELECT name, context FROM pg_settings WHERE name LIKE 'corebank.%' AND context NOT IN ('user', 'superuser')$$,
                  $$VALUES ('corebank.root_key_file'::text, 'sighup'::text)$$,
                  'the root key file is the one server-level corebank setting: no session can SET it');
SELECT throws_ok($$SET corebank.root_key_file = '/tmp/other.key'$$, '55P02', NULL,
                 'SET corebank.root_key_file is refused, even to a superuser');

-- A fresh key, never opened by this backend (its parsed key is cached per kid).
DELETE FROM corebank.auth_signing_keys;
CREATE TEMP TABLE k1 AS SELECT corebank.auth_rotate_signing_key() AS kid;
CREATE TEMP TABLE original AS
    SELECT private_key_sealed AS sealed FROM corebank.auth_signing_keys WHERE kid = (SELECT kid FROM k1);

SELECT is(pg_temp.occurrences('-----BEGIN'), 0::bigint, 'no PEM block is stored in any table, as text or as bytes');
SELECT is(pg_temp.occurrences('PRIVATE KEY'), 0::bigint, 'no "PRIVATE KEY" is stored in any table');
SELECT ok((SELECT substring(sealed FROM 1 FOR 1) = '\x01'::bytea AND length(sealed) > 1000 FROM original),
          'the stored value is a version-1 sealed blob the size of an RSA-2048 PKCS#8 key');

-- One changed byte in the ciphertext.
UPDATE corebank.auth_signing_keys
    SET private_key_sealed = set_byte(private_key_sealed, 100, get_byte(private_key_sealed, 100) # 1)
    WHERE kid = (SELECT kid FROM k1);
SELECT throws_ok($$SELECT corebank_internal.sign_jwt('{"sub": "x"}')$$, 'XX001', NULL,
                 'a sealed key with one changed byte does not sign');
SELECT throws_like($$SELECT corebank_internal.sign_jwt('{"sub": "x"}')$$, '%sealed private key%does not open%',
                   'and the error says the sealed key does not open');

-- Restored, it signs.
UPDATE corebank.auth_signing_keys SET private_key_sealed = (SELECT sealed FROM original)
    WHERE kid = (SELECT kid FROM k1);
SELECT is(pg_temp.jwt_part(corebank_internal.sign_jwt('{"sub": "x"}'), 1) ->> 'kid', (SELECT kid FROM k1),
          'the unchanged sealed key signs');

-- The same sealed bytes on another key's row (the kid is the associated data).
UPDATE corebank.auth_signing_keys SET retired_at = now() WHERE kid = (SELECT kid FROM k1);
CREATE TEMP TABLE other AS SELECT g.kid, g.public_jwk FROM corebank_internal.generate_rsa_key() g;
INSERT INTO corebank.auth_signing_keys (kid, public_jwk, private_key_sealed)
    SELECT o.kid, o.public_jwk, (SELECT sealed FROM original) FROM other o;
SELECT throws_ok($$SELECT corebank_internal.sign_jwt('{"sub": "x"}')$$, 'XX001', NULL,
                 'sealed bytes copied onto another key do not sign');

-- The schema keeps the column sealed.
SELECT throws_ok($$UPDATE corebank.auth_signing_keys SET private_key_sealed = NULL WHERE retired_at IS NULL$$,
                 '23514', NULL, 'an active key without a sealed private key is refused');
SELECT throws_ok($$UPDATE corebank.auth_signing_keys
                   SET private_key_sealed = convert_to('-----BEGIN PRIVATE KEY-----' || repeat('A', 64), 'UTF8')
                   WHERE retired_at IS NULL$$,
                 '23514', NULL, 'a PEM written into the sealed column is refused');

-- The tier's role reads neither the sealed bytes nor the root key's path.
SET ROLE corebank_app;
SELECT throws_ok('SELECT private_key_sealed FROM corebank.auth_signing_keys', '42501', NULL,
                 'corebank_app cannot read the sealed private keys');
SELECT throws_ok('SELECT corebank_internal.auth_root_key_problem()', '42501', NULL,
                 'corebank_app cannot call auth_root_key_problem');
SELECT throws_ok($$SELECT current_setting('corebank.root_key_file')$$, '42501', NULL,
                 'corebank_app cannot read corebank.root_key_file');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
