-- auth_outbound_events.sql: the identity service's outbound events
-- (docs/identity.md, "Outbound events").
--
-- Goal: each identity audit event that matters becomes one thin identity.*
-- event in the webhook outbox, with one delivery per active endpoint whose
-- events filter is absent or names the type; the body is
-- {id, type, createdAt, data: {userId}} and holds no email or other personal
-- data; an audit event that is not mapped (a login) queues nothing; a move
-- that rolls back queues nothing; a KYC tier change queues
-- identity.user.kyc_tier_changed; real moves (a registration, a suspension)
-- queue theirs; endpoints may subscribe to identity types.
-- Method: audit rows written as the functions write them, and the functions
-- themselves; the outbox read directly.
BEGIN;
SELECT plan(23);
\ir helpers/identity.sql
\ir helpers/verify.sql

CREATE TEMP TABLE ep AS
    SELECT (corebank.verify_webhook_endpoint_create('https://hooks.example.com/all', NULL, NULL, pg_temp.sealed('a')) ->> 'id')::uuid AS all_types,
           (corebank.verify_webhook_endpoint_create('https://hooks.example.com/sessions', NULL,
                ARRAY['session.completed'], pg_temp.sealed('s')) ->> 'id')::uuid AS sessions_only,
           (corebank.verify_webhook_endpoint_create('https://hooks.example.com/suspensions', NULL,
                ARRAY['identity.user.suspended', 'identity.user.reinstated'], pg_temp.sealed('u')) ->> 'id')::uuid AS suspensions;

-- The events queued since a mark, oldest first.
CREATE TEMP TABLE mark AS SELECT now() AS at;
CREATE FUNCTION pg_temp.events_of(user_id uuid) RETURNS TABLE (id uuid, type text, body jsonb, deliveries uuid[])
    LANGUAGE sql
    AS $f$
    SELECT e.id, e.type, e.body::jsonb,
           (SELECT array_agg(d.endpoint_id ORDER BY d.endpoint_id) FROM corebank.verify_webhook_deliveries d WHERE d.event_id = e.id)
    FROM corebank.verify_webhook_events e
    WHERE e.body::jsonb -> 'data' ->> 'userId' = user_id::text
    ORDER BY e.created_at, e.id
$f$;

-- A registration: one identity.user.registered, to the endpoint without a filter only.
CREATE TEMP TABLE reg AS SELECT pg_temp.register('outbound@example.com', '+15550001111', 'ob-r0') AS b;
SELECT pg_temp.uid(b) AS uid FROM reg \gset
SELECT is((SELECT count(*) FROM pg_temp.events_of(:'uid')), 1::bigint, 'a registration queues one event');
SELECT is((SELECT type FROM pg_temp.events_of(:'uid')), 'identity.user.registered', 'of type identity.user.registered');
SELECT is((SELECT deliveries FROM pg_temp.events_of(:'uid')), ARRAY[(SELECT all_types FROM ep)],
          'delivered to the endpoint without a filter only');
SELECT is((SELECT body - 'createdAt' FROM pg_temp.events_of(:'uid')),
          jsonb_build_object('id', (SELECT id FROM pg_temp.events_of(:'uid')), 'type', 'identity.user.registered',
                             'data', jsonb_build_object('userId', :'uid')),
          'the body is id, type, createdAt and the user id');
SELECT ok((SELECT body ->> 'createdAt' FROM pg_temp.events_of(:'uid')) ~ '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$',
          'createdAt is UTC ISO 8601');
SELECT ok((SELECT bool_and(body::text !~* 'outbound|example\.com|5550001111') FROM pg_temp.events_of(:'uid')),
          'no email or phone in the body');

-- Every mapped audit event, written as the functions write it: one event of its type.
TRUNCATE pg_temp.mark;
CREATE TEMP TABLE mapped (event text, detail jsonb, expected text);
INSERT INTO mapped VALUES
    ('suspended', '{"reason": "fraud"}', 'identity.user.suspended'),
    ('reinstated', '{"reason": "cleared"}', 'identity.user.reinstated'),
    ('deactivated', NULL, 'identity.user.deactivated'),
    ('locked', '{"failures": 5}', 'identity.user.locked'),
    ('password_changed', NULL, 'identity.password.changed'),
    ('password_reset', NULL, 'identity.password.changed'),
    ('mfa_enabled', NULL, 'identity.mfa.enabled'),
    ('mfa_disabled', NULL, 'identity.mfa.disabled'),
    ('contact_confirmed', '{"kind": "email", "value": "new@example.com", "previous": "outbound@example.com"}',
     'identity.user.email_changed'),
    ('contact_confirmed', '{"kind": "phone", "value": "+15550002222", "previous": "+15550001111"}',
     'identity.user.phone_changed');
CREATE TEMP TABLE before_mapped AS SELECT count(*) AS n FROM corebank.verify_webhook_events;
SELECT count(corebank_internal.audit(:'uid', event, detail)) FROM mapped;
SELECT is((SELECT array_agg(type ORDER BY type) FROM corebank.verify_webhook_events e
           WHERE e.body::jsonb -> 'data' ->> 'userId' = :'uid' AND e.type <> 'identity.user.registered'),
          (SELECT array_agg(expected ORDER BY expected) FROM mapped),
          'each mapped audit event queues one event of its documented type');
SELECT ok((SELECT bool_and(body::text !~* 'example\.com|555000|fraud|cleared|failures')
           FROM pg_temp.events_of(:'uid')), 'no personal data, reason or detail in any body');
SELECT ok((SELECT bool_and(body - 'createdAt' - 'id' = jsonb_build_object('type', type, 'data', jsonb_build_object('userId', :'uid')))
           FROM pg_temp.events_of(:'uid')), 'every body holds the user id only');
SELECT is((SELECT deliveries FROM pg_temp.events_of(:'uid') WHERE type = 'identity.user.suspended'),
          (SELECT array_agg(x ORDER BY x) FROM ep, unnest(ARRAY[all_types, suspensions]) x),
          'a suspension reaches the endpoint without a filter and the one subscribed to it');
SELECT is((SELECT deliveries FROM pg_temp.events_of(:'uid') WHERE type = 'identity.user.locked'),
          ARRAY[(SELECT all_types FROM ep)], 'a lock does not reach an endpoint whose filter omits it');
SELECT is((SELECT count(*) FROM corebank.verify_webhook_deliveries d JOIN ep ON d.endpoint_id = ep.sessions_only),
          0::bigint, 'an endpoint subscribed to session events only receives no identity event');

-- Unmapped audit events and events without a user queue nothing.
CREATE TEMP TABLE before_unmapped AS SELECT count(*) AS n FROM corebank.verify_webhook_events;
SELECT corebank_internal.audit(:'uid', 'login_ok');
SELECT corebank_internal.audit(:'uid', 'login_failed', '{"reason": "password"}');
SELECT corebank_internal.audit(:'uid', 'logout');
SELECT corebank_internal.audit(:'uid', 'profile_updated');
SELECT corebank_internal.audit(:'uid', 'contact_claimed', '{"kind": "email"}');
SELECT corebank_internal.audit(NULL, 'register');
SELECT is((SELECT count(*) FROM corebank.verify_webhook_events) - (SELECT n FROM before_unmapped), 0::bigint,
          'logins, logouts, profile updates, claims and rows without a user queue nothing');

-- A move that rolls back queues nothing.
SAVEPOINT move;
SELECT corebank_internal.audit(:'uid', 'deactivated');
ROLLBACK TO SAVEPOINT move;
SELECT is((SELECT count(*) FROM corebank.verify_webhook_events) - (SELECT n FROM before_unmapped), 0::bigint,
          'a rolled-back move leaves no event');
SELECT is((SELECT count(*) FROM corebank.verify_webhook_deliveries d
           WHERE NOT EXISTS (SELECT FROM corebank.verify_webhook_events e WHERE e.id = d.event_id)), 0::bigint,
          'and no delivery');

-- A KYC tier change.
INSERT INTO corebank.auth_kyc_tier_changes (user_id, from_tier, to_tier, source, evidence)
VALUES (:'uid', 'NONE', 'BASIC', 'contact_proof', '{"email": "outbound@example.com"}');
SELECT is((SELECT count(*) FROM pg_temp.events_of(:'uid') WHERE type = 'identity.user.kyc_tier_changed'), 1::bigint,
          'a KYC tier change queues identity.user.kyc_tier_changed');
SELECT ok((SELECT body::text !~* 'example\.com|BASIC' FROM pg_temp.events_of(:'uid') WHERE type = 'identity.user.kyc_tier_changed'),
          'with the user id only');

-- A real suspension by staff queues one identity.user.suspended.
CREATE TEMP TABLE staff AS SELECT pg_temp.uid(pg_temp.register('co-outbound@example.com')) AS id;
UPDATE corebank.auth_users SET roles = '{compliance_officer}' WHERE id = (SELECT id FROM staff);
SELECT (SELECT id FROM staff) AS sid,
       (SELECT s.id FROM corebank.auth_sessions s WHERE s.user_id = (SELECT id FROM staff) LIMIT 1) AS ssid \gset
CREATE TEMP TABLE victim AS SELECT pg_temp.uid(pg_temp.register('victim@example.com')) AS id;
SELECT (SELECT id FROM victim) AS vid \gset
SELECT lives_ok(format('SELECT corebank.auth_user_suspend(%L, %L, %L, %L)', :'sid', :'ssid', :'vid', 'fraud'),
                'staff suspend a user');
SELECT is((SELECT array_agg(type ORDER BY type) FROM pg_temp.events_of(:'vid')),
          ARRAY['identity.user.registered', 'identity.user.suspended'], 'the suspension queued identity.user.suspended');

-- Disabled endpoints receive nothing.
UPDATE corebank.verify_webhook_endpoints SET status = 'disabled', disabled_at = now()
WHERE id = (SELECT suspensions FROM ep);
SELECT corebank_internal.audit(:'vid', 'reinstated', '{"reason": "x"}');
SELECT is((SELECT deliveries FROM pg_temp.events_of(:'vid') WHERE type = 'identity.user.reinstated'),
          ARRAY[(SELECT all_types FROM ep)], 'a disabled endpoint receives no identity event');

-- Endpoint filters: identity types may be named; unknown ones are refused.
SELECT lives_ok($$SELECT corebank.verify_webhook_endpoint_create('https://x.example.com', NULL,
                  ARRAY['identity.user.registered', 'identity.mfa.disabled', 'session.expired'], pg_temp.sealed('x'))$$,
                'an endpoint may subscribe to identity and session types');
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoint_create('https://x.example.com', NULL,
                   ARRAY['identity.user.created'], pg_temp.sealed('x'))$$,
                 'CBV00', 'events: must be 1 to 14 distinct known event types', 'an unknown identity type is refused');
SELECT throws_ok($$INSERT INTO corebank.verify_webhook_events (id, type, session_id, endpoint_id, created_at, body)
                   VALUES (gen_random_uuid(), 'identity.user.locked', NULL, (SELECT all_types FROM ep), now(), '{}')$$,
                 '23514', NULL, 'an identity event is addressed to no endpoint');

SELECT * FROM finish();
ROLLBACK;
