-- token_claims.sql: the claims of user and client access tokens.
--
-- Goal: a user token's header is {"alg":"RS256","typ":"JWT","kid":<active>}
-- and its claims are exactly sub, iss, aud, iat, exp, jti, phone?, email?,
-- roles, scopes, kyc_tier: aud a plain string (the clientId, else the default
-- audience), phone/email only when present, scopes the sorted distinct union
-- of the roles' scopes; every token has its auth_access_tokens row. A client
-- token's claims are exactly sub, iss, iat, exp, jti, token_type, client_id,
-- scopes. Method: decode the JWT segments in SQL.
BEGIN;
SELECT plan(22);
\ir helpers/identity.sql

CREATE FUNCTION pg_temp.claim_keys(token text) RETURNS text[]
    LANGUAGE sql IMMUTABLE
    AS $f$ SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(pg_temp.jwt_part(token, 2)) AS k $f$;

CREATE TEMP TABLE both_ids AS
    SELECT pg_temp.register('claims@example.com', '+263773330000', 'c1') ->> 'accessToken' AS token;
CREATE TEMP TABLE claims AS SELECT pg_temp.jwt_part(token, 2) AS c FROM both_ids;
CREATE TEMP TABLE u AS SELECT id FROM corebank.auth_users WHERE email = 'claims@example.com';

SELECT is((SELECT pg_temp.jwt_part(token, 1) FROM both_ids),
          jsonb_build_object('alg', 'RS256', 'typ', 'JWT',
                             'kid', (SELECT kid FROM corebank.auth_signing_keys WHERE retired_at IS NULL)),
          'the header is RS256, JWT and the active kid');
SELECT is((SELECT pg_temp.claim_keys(token) FROM both_ids),
          ARRAY['amr', 'aud', 'email', 'exp', 'iat', 'iss', 'jti', 'kyc_tier', 'phone', 'roles', 'scopes', 'sub'],
          'a user token has exactly the contract claims');
SELECT is((SELECT c ->> 'sub' FROM claims), (SELECT id::text FROM u), 'sub is the user id');
SELECT is((SELECT c ->> 'iss' FROM claims), 'http://127.0.0.1:8081', 'iss is corebank.issuer');
SELECT is((SELECT jsonb_typeof(c -> 'aud') || ':' || (c ->> 'aud') FROM claims), 'string:corebank',
          'aud is the plain string default audience');
SELECT is((SELECT (c ->> 'exp')::bigint - (c ->> 'iat')::bigint FROM claims), 900::bigint,
          'exp - iat is the access token lifetime');
SELECT is((SELECT c ->> 'phone' FROM claims) || ' ' || (SELECT c ->> 'email' FROM claims),
          '+263773330000 claims@example.com', 'phone and email are the registered ones');
SELECT is((SELECT c -> 'roles' FROM claims), '["customer"]'::jsonb, 'roles are the user''s roles');
SELECT is((SELECT c -> 'scopes' FROM claims), '["banking:read", "profile:read", "profile:write"]'::jsonb,
          'scopes are the customer role''s scopes, sorted');
SELECT is((SELECT c ->> 'kyc_tier' FROM claims), 'NONE', 'kyc_tier is the user''s tier');
SELECT is((SELECT count(*) FROM corebank.auth_access_tokens t, claims
           WHERE t.jti = (c ->> 'jti')::uuid AND t.user_id = (SELECT id FROM u)
             AND extract(epoch FROM t.issued_at)::bigint = (c ->> 'iat')::bigint
             AND extract(epoch FROM t.expires_at)::bigint = (c ->> 'exp')::bigint),
          1::bigint, 'the token is recorded with the same jti, iat and exp');

-- Absent identifiers are absent claims.
SELECT is(pg_temp.claim_keys(pg_temp.register('email-only@example.com', NULL, 'c2') ->> 'accessToken'),
          ARRAY['amr', 'aud', 'email', 'exp', 'iat', 'iss', 'jti', 'kyc_tier', 'roles', 'scopes', 'sub'],
          'an email-only user has no phone claim');
SELECT is(pg_temp.claim_keys(pg_temp.register(NULL, '263773330001', 'c3') ->> 'accessToken'),
          ARRAY['amr', 'aud', 'exp', 'iat', 'iss', 'jti', 'kyc_tier', 'phone', 'roles', 'scopes', 'sub'],
          'a phone-only user has no email claim');

-- Audience and issuer.
SELECT corebank.auth_client_create('web-app', pg_temp.hash(), '{}', 'Web', NULL, NULL);
SELECT is(pg_temp.jwt_part(pg_temp.register('aud@example.com', NULL, 'c4', 'web-app') ->> 'accessToken', 2) ->> 'aud',
          'web-app', 'aud is the clientId given at registration');
SELECT is(pg_temp.jwt_part(pg_temp.login((SELECT id FROM u), 'c5', 'web-app') -> 'tokens' ->> 'accessToken', 2) ->> 'aud',
          'web-app', 'aud is the clientId given at login');
SET LOCAL corebank.default_audience = 'other-audience';
SET LOCAL corebank.issuer = 'https://id.example';
SELECT is(pg_temp.jwt_part(pg_temp.login((SELECT id FROM u), 'c6') -> 'tokens' ->> 'accessToken', 2)
              - ARRAY['sub', 'iat', 'exp', 'jti', 'phone', 'email', 'roles', 'scopes', 'kyc_tier', 'amr'],
          '{"aud": "other-audience", "iss": "https://id.example"}'::jsonb,
          'aud and iss follow corebank.default_audience and corebank.issuer');
RESET corebank.default_audience;
RESET corebank.issuer;

-- Staff scopes: the sorted, distinct union of every role.
CREATE TEMP TABLE staff AS
    SELECT corebank.auth_staff_create('teller@example.com', NULL, pg_temp.hash(), 'T', 'S', '{teller,supervisor}', 'HO') AS id;
SELECT is(pg_temp.jwt_part(pg_temp.login((SELECT id FROM staff), 'c7') -> 'tokens' ->> 'accessToken', 2) -> 'scopes',
          '["approvals:check", "approvals:make", "banking:read", "banking:write", "profile:read"]'::jsonb,
          'scopes are the sorted distinct union of the roles'' scopes');

-- Client tokens.
SELECT corebank.auth_client_create('kyc-svc', pg_temp.hash(), '{kyc:validate,kyc:screen}', 'KYC', NULL, NULL);
CREATE TEMP TABLE client_token AS SELECT corebank.auth_client_token('kyc-svc', NULL) ->> 'accessToken' AS token;
SELECT is((SELECT pg_temp.claim_keys(token) FROM client_token),
          ARRAY['client_id', 'exp', 'iat', 'iss', 'jti', 'scopes', 'sub', 'token_type'],
          'a client token has exactly the contract claims');
SELECT is((SELECT pg_temp.jwt_part(token, 2) - ARRAY['iat', 'exp', 'jti'] FROM client_token),
          '{"sub": "kyc-svc", "iss": "http://127.0.0.1:8081", "client_id": "kyc-svc", "token_type": "client", "scopes": ["kyc:screen", "kyc:validate"]}'::jsonb,
          'the client token names the client and its granted scopes, sorted');
SELECT is((SELECT (c ->> 'exp')::bigint - (c ->> 'iat')::bigint FROM (SELECT pg_temp.jwt_part(token, 2) AS c FROM client_token) AS x),
          900::bigint, 'a client token lives the access token lifetime');
SELECT is((SELECT count(*) FROM corebank.auth_access_tokens t, client_token
           WHERE t.jti = (pg_temp.jwt_part(token, 2) ->> 'jti')::uuid AND t.client_id = 'kyc-svc'
             AND t.session_id IS NULL AND t.user_id IS NULL),
          1::bigint, 'the client token is recorded with the client and no session');
SELECT is((SELECT pg_temp.jwt_part(token, 1) ->> 'alg' FROM client_token), 'RS256', 'client tokens are RS256');

SELECT * FROM finish();
ROLLBACK;
