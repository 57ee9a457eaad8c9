-- oauth_clients.sql: client create, the client credentials grant,
-- and authenticate/introspect for both kinds of token.
--
-- Goal: a client token is issued only to an ACTIVE client and only for
-- scopes it was granted (none requested = all); the bearer check answers
-- active only while the token is unexpired and its session (user tokens) or
-- client (client tokens) is live; introspection reports RFC 7662 facts.
BEGIN;
SELECT plan(22);
\ir helpers/identity.sql

-- create
SELECT is(corebank.auth_client_create('kyc-svc', pg_temp.hash(1), '{kyc:validate,kyc:screen}', 'KYC', NULL, NULL)
              - 'createdAt',
          '{"clientId": "kyc-svc", "name": "KYC", "status": "ACTIVE", "scopes": ["kyc:validate", "kyc:screen"], "resetLinkBase": null, "appName": null}'::jsonb,
          'auth_client_create answers the new client');
SELECT throws_ok($$SELECT corebank.auth_client_create('kyc-svc', pg_temp.hash(2), '{}', NULL, NULL, NULL)$$,
                 'CB409', 'An OAuth client with this id already exists', 'a duplicate client id is a conflict');
SELECT throws_ok($$SELECT corebank.auth_client_create('bad id', pg_temp.hash(2), '{}', NULL, NULL, NULL)$$,
                 'CBV00', NULL, 'a client id with a space is refused');
SELECT throws_ok($$SELECT corebank.auth_client_create('plain', 'secret', '{}', NULL, NULL, NULL)$$,
                 'CBV00', 'secret_hash: must be an argon2id encoded hash', 'a plaintext secret is refused');
SELECT is((SELECT (secret_hash, status, scopes) FROM corebank.auth_oauth_clients WHERE client_id = 'kyc-svc'),
          (pg_temp.hash(1), 'ACTIVE'::text, '{kyc:validate,kyc:screen}'::text[]),
          'the client is stored with its secret hash, status and scopes');
SELECT is(corebank.auth_client_auth_begin('kyc-svc') - 'argon2',
          '{"outcome": "proceed", "clientId": "kyc-svc", "status": "ACTIVE", "scopes": ["kyc:validate", "kyc:screen"],
            "audiences": []}'::jsonb,
          'client authentication begins with its id, status and scopes');

-- the grant
SELECT is(corebank.auth_client_token('kyc-svc', NULL) - 'accessToken',
          '{"tokenType": "Bearer", "expiresIn": 900, "scope": "kyc:screen kyc:validate"}'::jsonb,
          'no requested scope grants every scope, space-separated and sorted');
SELECT is(corebank.auth_client_token('kyc-svc', '{}') ->> 'scope', 'kyc:screen kyc:validate',
          'an empty request grants every scope');
SELECT is(corebank.auth_client_token('kyc-svc', '{kyc:validate,kyc:validate}') ->> 'scope', 'kyc:validate',
          'a subset grants just that subset');
SELECT throws_ok($$SELECT corebank.auth_client_token('kyc-svc', '{kyc:validate,admin,reports:read}')$$,
                 'CB400', 'invalid_scope: admin reports:read', 'a scope not granted is refused, naming it');
SELECT throws_ok($$SELECT corebank.auth_client_token('nobody', NULL)$$,
                 'CB401', 'Invalid client credentials', 'an unknown client is refused');

-- authenticate / introspect: client tokens
CREATE TEMP TABLE ct AS
    SELECT (pg_temp.jwt_part(corebank.auth_client_token('kyc-svc', NULL) ->> 'accessToken', 2) ->> 'jti')::uuid AS jti;
SELECT is(corebank.auth_authenticate((SELECT jti FROM ct)),
          '{"active": true, "userId": null, "sessionId": null, "clientId": "kyc-svc"}'::jsonb,
          'a client token of an active client is active');
SELECT is(corebank.auth_introspect((SELECT jti FROM ct)) - ARRAY['iat', 'exp'],
          jsonb_build_object('active', true, 'sub', 'kyc-svc', 'jti', (SELECT jti FROM ct), 'token_type', 'client',
                             'client_id', 'kyc-svc'),
          'introspection of a client token');
UPDATE corebank.auth_oauth_clients SET status = 'DISABLED' WHERE client_id = 'kyc-svc';
SELECT is(corebank.auth_authenticate((SELECT jti FROM ct)), '{"active": false}'::jsonb,
          'a client token of a disabled client is inactive');
SELECT throws_ok($$SELECT corebank.auth_client_token('kyc-svc', NULL)$$,
                 'CB401', 'Invalid client credentials', 'a disabled client gets no token');

-- authenticate / introspect: user tokens
CREATE TEMP TABLE reg AS SELECT pg_temp.register('bearer@example.com', '+263774440000', 'b1') AS block;
CREATE TEMP TABLE ut AS
    SELECT (pg_temp.jwt_part(block ->> 'accessToken', 2) ->> 'jti')::uuid AS jti, pg_temp.uid(block) AS user_id,
           (block ->> 'sessionId')::uuid AS session_id
    FROM reg;
SELECT is(corebank.auth_authenticate((SELECT jti FROM ut)),
          jsonb_build_object('active', true, 'userId', (SELECT user_id FROM ut),
                             'sessionId', (SELECT session_id FROM ut), 'clientId', NULL),
          'a user token of a live session is active');
SELECT is(corebank.auth_introspect((SELECT jti FROM ut)) - ARRAY['iat', 'exp'],
          jsonb_build_object('active', true, 'sub', (SELECT user_id FROM ut)::text, 'jti', (SELECT jti FROM ut),
                             'token_type', 'access', 'aud', 'corebank', 'username', 'bearer@example.com'),
          'introspection of a user token names the audience and the username');
SELECT is(corebank.auth_authenticate(gen_random_uuid()), '{"active": false}'::jsonb, 'an unknown jti is inactive');
UPDATE corebank.auth_access_tokens SET issued_at = now() - interval '2 hours', expires_at = now() - interval '1 second'
WHERE jti = (SELECT jti FROM ut);
SELECT is(corebank.auth_authenticate((SELECT jti FROM ut)), '{"active": false}'::jsonb, 'an expired token is inactive');
SELECT is(corebank.auth_introspect((SELECT jti FROM ut)), '{"active": false}'::jsonb,
          'introspection of an expired token is inactive');
UPDATE corebank.auth_access_tokens SET issued_at = now(), expires_at = now() + interval '1 minute'
WHERE jti = (SELECT jti FROM ut);
SELECT corebank.auth_logout((SELECT user_id FROM ut), (SELECT session_id FROM ut));
SELECT is(corebank.auth_authenticate((SELECT jti FROM ut)), '{"active": false}'::jsonb,
          'revoking the session deactivates its access token at once');
SELECT is(corebank.auth_introspect((SELECT jti FROM ut)), '{"active": false}'::jsonb,
          'introspection of a revoked token is inactive');

SELECT * FROM finish();
ROLLBACK;
