-- auth_live_tokens.sql: the view corebank_internal.auth_live_tokens (1.7),
-- the one lookup of the bearer check and of introspection.
--
-- Goal: a live token is listed with the facts both callers answer with; an
-- unknown or revoked one is not; the tier cannot read the view. Method: a
-- registration's access token, before and after its sessions are revoked.
BEGIN;
SELECT plan(4);
\ir helpers/identity.sql

CREATE TEMP TABLE reg AS SELECT pg_temp.register('live@example.com', NULL, 'l1') AS block;
CREATE TEMP TABLE ut AS
    SELECT (pg_temp.jwt_part(block ->> 'accessToken', 2) ->> 'jti')::uuid AS jti, pg_temp.uid(block) AS user_id,
           (block ->> 'sessionId')::uuid AS session_id
    FROM reg;
SELECT is((SELECT to_jsonb(t) - 'issued_at' - 'expires_at' FROM corebank_internal.auth_live_tokens t
           WHERE t.jti = (SELECT jti FROM ut)),
          jsonb_build_object('jti', (SELECT jti FROM ut), 'user_id', (SELECT user_id FROM ut),
                             'session_id', (SELECT session_id FROM ut), 'client_id', NULL,
                             'session_client_id', NULL, 'session_audience', 'corebank',
                             'user_email', 'live@example.com', 'user_phone', NULL),
          'a live user token is listed with its session, user and client facts');
SELECT is((SELECT count(*) FROM corebank_internal.auth_live_tokens t WHERE t.jti = gen_random_uuid()), 0::bigint,
          'an unknown jti is not listed');
SELECT is(has_table_privilege('corebank_app', 'corebank_internal.auth_live_tokens', 'SELECT'), false,
          'the tier cannot read the view directly');
SELECT corebank.auth_logout_all((SELECT user_id FROM ut));
SELECT is((SELECT count(*) FROM corebank_internal.auth_live_tokens t WHERE t.jti = (SELECT jti FROM ut)), 0::bigint,
          'a token of a revoked session is not listed');

SELECT * FROM finish();
ROLLBACK;
