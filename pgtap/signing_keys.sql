-- signing_keys.sql: RS256 key creation, rotation and the JWKS.
--
-- Goal: ensure makes exactly one active key and keeps it while fresh; a key
-- older than the rotation age is replaced; rotation retires the old key, and
-- the JWKS publishes the active key plus retired keys whose tokens may still
-- be live (retired_at + access ttl > now); tokens are signed with the active
-- key; the private key is not published.
BEGIN;
SELECT plan(17);
\ir helpers/identity.sql

-- Start from no key at all (inside this transaction only).
DELETE FROM corebank.auth_signing_keys;

CREATE TEMP TABLE k1 AS SELECT corebank.auth_ensure_signing_key() AS kid;
SELECT is((SELECT count(*) FROM corebank.auth_signing_keys WHERE retired_at IS NULL), 1::bigint,
          'ensure creates one active key when there is none');
SELECT is(corebank.auth_ensure_signing_key(), (SELECT kid FROM k1), 'ensure keeps a fresh key');
SELECT is((SELECT count(*) FROM corebank.auth_signing_keys), 1::bigint, 'a second ensure creates nothing');
SELECT is((SELECT public_jwk - 'n' FROM corebank.auth_signing_keys WHERE kid = (SELECT kid FROM k1)),
          jsonb_build_object('kty', 'RSA', 'e', 'AQAB', 'kid', (SELECT kid FROM k1), 'alg', 'RS256', 'use', 'sig'),
          'the public JWK is RSA, RS256, sig, with the kid');
SELECT is((SELECT length(decode(rpad(translate(public_jwk ->> 'n', '-_', '+/'),
                                     ((length(public_jwk ->> 'n') + 3) / 4) * 4, '='), 'base64'))
           FROM corebank.auth_signing_keys WHERE kid = (SELECT kid FROM k1)),
          256, 'the modulus is 2048 bits');

-- The JWKS.
SELECT is(corebank.auth_jwks(),
          jsonb_build_object('keys', jsonb_build_array((SELECT public_jwk FROM corebank.auth_signing_keys))),
          'the JWKS publishes the active key');
SELECT is(position('PRIVATE' IN corebank.auth_jwks()::text), 0, 'the JWKS holds no private key');
SELECT is(pg_temp.jwt_part(corebank_internal.sign_jwt('{"sub": "x"}'), 1) ->> 'kid', (SELECT kid FROM k1),
          'tokens are signed with the active key');

-- Rotation.
CREATE TEMP TABLE k2 AS SELECT corebank.auth_rotate_signing_key() AS kid;
SELECT isnt((SELECT kid FROM k2), (SELECT kid FROM k1), 'rotation makes a new key');
SELECT is((SELECT kid FROM corebank.auth_signing_keys WHERE retired_at IS NULL), (SELECT kid FROM k2),
          'the new key is the only active one');
SELECT is(pg_temp.jwt_part(corebank_internal.sign_jwt('{"sub": "x"}'), 1) ->> 'kid', (SELECT kid FROM k2),
          'tokens are now signed with the new key');
SELECT is(ARRAY(SELECT k ->> 'kid' FROM jsonb_array_elements(corebank.auth_jwks() -> 'keys') AS k),
          ARRAY[(SELECT kid FROM k2), (SELECT kid FROM k1)],
          'the JWKS publishes the new key and the rotated-out one');
UPDATE corebank.auth_signing_keys SET retired_at = now() - interval '901 seconds' WHERE kid = (SELECT kid FROM k1);
SELECT is(ARRAY(SELECT k ->> 'kid' FROM jsonb_array_elements(corebank.auth_jwks() -> 'keys') AS k),
          ARRAY[(SELECT kid FROM k2)], 'a retired key leaves the JWKS once its tokens have expired');

-- Age-based rotation.
UPDATE corebank.auth_signing_keys SET created_at = now() - interval '31 days' WHERE kid = (SELECT kid FROM k2);
CREATE TEMP TABLE k3 AS SELECT corebank.auth_ensure_signing_key() AS kid;
SELECT isnt((SELECT kid FROM k3), (SELECT kid FROM k2), 'ensure replaces a key older than the rotation age');
SELECT is((SELECT count(*) FROM corebank.auth_signing_keys WHERE retired_at IS NULL), 1::bigint,
          'still exactly one active key');
SELECT throws_ok($$INSERT INTO corebank.auth_signing_keys (kid, public_jwk, private_key_sealed)
                   SELECT g.kid, g.public_jwk, decode(repeat('01', 40), 'hex')
                   FROM corebank_internal.generate_rsa_key() g$$,
                 '23505', NULL, 'the schema refuses a second active key');

-- generate_rsa_key alone.
SELECT is((SELECT g.public_jwk ->> 'kid' = g.kid AND g.private_key_pem LIKE '-----BEGIN PRIVATE KEY-----%'
           FROM corebank_internal.generate_rsa_key() g), true,
          'generate_rsa_key returns a kid, its JWK and a PKCS#8 PEM');

SELECT * FROM finish();
ROLLBACK;
