-- verify_idempotency.sql: Idempotency-Key on every write.
--
-- Goal: within 24 hours the same key with the same request returns the
-- stored response (the same session, the same status, marked replayed) and
-- changes nothing; the same key with another request, another operation or
-- another target is 409; after 24 hours the key is forgotten and the request
-- is new; keys are scoped (an API key's are not another's, a session's are
-- not another session's); a refused request stores nothing, so its retry is
-- decided anew; a submission's key is "in progress" until it finishes.
-- Method: call the C++ functions as the tier does, with fixed request hashes.
BEGIN;
SELECT plan(24);
\ir helpers/verify.sql

-- Create: replay.
CREATE TEMP TABLE first AS SELECT pg_temp.vcreate('liveness+facematch+document', 'tok-idem-1', 'key-A', 'body-1') AS r;
CREATE TEMP TABLE again AS SELECT pg_temp.vcreate('liveness+facematch+document', 'tok-idem-2', 'key-A', 'body-1') AS r;
SELECT is((SELECT r ->> 'replayed' FROM first), 'false', 'the first create is not a replay');
SELECT is((SELECT r ->> 'status' FROM first), '201', 'the first create answers 201');
SELECT is((SELECT r ->> 'replayed' FROM again), 'true', 'the same key and request is a replay');
SELECT is((SELECT r -> 'body' FROM again), (SELECT r -> 'body' FROM first), 'the replay returns the original body');
SELECT is((SELECT r ->> 'status' FROM again), '201', 'the replay keeps the original status');
SELECT is((SELECT r ->> 'clientTokenSealed' FROM again), encode(pg_temp.sealed('tok-idem-1'), 'hex'),
          'the replay carries the first request''s sealed client token');
SELECT is((SELECT count(*) FROM corebank.verify_sessions WHERE api_key_id = pg_temp.vkey()), 1::bigint,
          'a replay creates no second session');

-- Conflicts.
SELECT throws_ok($$SELECT pg_temp.vcreate('liveness', 'tok-idem-3', 'key-A', 'body-2')$$, 'CB409',
                 'Idempotency-Key was already used with a different request; use a new key for a new request',
                 'the same key with another body is 409');
CREATE TEMP TABLE s AS SELECT ((SELECT r FROM first) -> 'body' ->> 'sessionId')::uuid AS id;
SELECT throws_ok($$SELECT corebank.verify_session_cancel(pg_temp.vkey(), 'key-A', pg_temp.h('body-1'), (SELECT id FROM s), NULL)$$,
                 'CB409', NULL, 'the same key for another operation is 409');
SELECT lives_ok($$SELECT corebank.verify_session_cancel(pg_temp.vkey(), 'key-cancel', pg_temp.h('{}'), (SELECT id FROM s), NULL)$$,
                'a cancel under its own key works');
SELECT is((SELECT corebank.verify_session_cancel(pg_temp.vkey(), 'key-cancel', pg_temp.h('{}'), (SELECT id FROM s), NULL)
                  ->> 'replayed'), 'true', 'a retried cancel replays its 200 although the session is terminal now');
CREATE TEMP TABLE other AS SELECT pg_temp.vsession('liveness', 'tok-idem-other') AS id;
SELECT throws_ok($$SELECT corebank.verify_session_cancel(pg_temp.vkey(), 'key-cancel', pg_temp.h('{}'), (SELECT id FROM other), NULL)$$,
                 'CB409', NULL, 'the same cancel key for another session is 409');

-- Scope: another API key may use the same key string.
SELECT is((corebank.verify_session_create('0b0b0b0b-0000-4000-8000-000000000002', 'key-A', pg_temp.h('body-1'),
                                           gen_random_uuid(), 'liveness', NULL, NULL, NULL, NULL, NULL,
                                           pg_temp.h('tok-idem-4'), pg_temp.sealed('x'), 3600, 900) ->> 'replayed'),
          'false', 'keys are scoped per API key');

-- A refused request stores nothing: its retry is decided anew.
SELECT throws_ok($$SELECT corebank.verify_session_create(pg_temp.vkey(), 'key-bad', pg_temp.h('bad'), gen_random_uuid(),
                   'selfie', NULL, NULL, NULL, NULL, NULL, pg_temp.h('tok-idem-5'), pg_temp.sealed('x'), 3600, 900)$$,
                 'CBV00', NULL, 'an invalid flow is refused');
SELECT is((SELECT count(*) FROM corebank.verify_idempotency_keys WHERE idem_key = 'key-bad'), 0::bigint,
          'a refused request leaves no idempotency key');

-- Expiry: after 24 hours the key is forgotten.
UPDATE corebank.verify_idempotency_keys SET created_at = now() - interval '24 hours 1 second' WHERE idem_key = 'key-A'
  AND scope = pg_temp.vkey();
CREATE TEMP TABLE later AS SELECT pg_temp.vcreate('liveness', 'tok-idem-6', 'key-A', 'body-2') AS r;
SELECT is((SELECT r ->> 'replayed' FROM later), 'false', 'a key older than 24 hours is a new request, even with another body');
SELECT isnt((SELECT r -> 'body' ->> 'sessionId' FROM later), (SELECT r -> 'body' ->> 'sessionId' FROM first),
            'and creates a new session');
SELECT is((SELECT count(*) FROM corebank.verify_idempotency_keys WHERE scope = pg_temp.vkey() AND idem_key = 'key-A'),
          1::bigint, 'the forgotten key is replaced, not duplicated');
UPDATE corebank.verify_idempotency_keys SET created_at = now() - interval '25 hours' WHERE idem_key = 'key-cancel';
SELECT is((corebank.verify_maintenance(120) ->> 'idempotencyKeysForgotten')::int >= 1, true,
          'maintenance deletes keys older than 24 hours');
SELECT is((SELECT count(*) FROM corebank.verify_idempotency_keys WHERE idem_key = 'key-cancel'), 0::bigint,
          'the old key is gone');

-- Hosted writes: scoped to the session; a submission is in progress until it finishes.
CREATE TEMP TABLE h AS SELECT pg_temp.vsession('liveness', 'tok-idem-h') AS id;
SELECT pg_temp.vconsent((SELECT id FROM h), 'tok-idem-h');
SELECT pg_temp.vcapture((SELECT id FROM h), 'tok-idem-h', 'selfie', 'cap-1', 'one');
SELECT throws_ok($$SELECT pg_temp.vcapture((SELECT id FROM h), 'tok-idem-h', 'selfie', 'cap-1', 'two')$$, 'CB409', NULL,
                 'a capture key reused for another image is 409');
SELECT pg_temp.vbegin((SELECT id FROM h), 'tok-idem-h', 'sub-1');
SELECT throws_ok($$SELECT pg_temp.vbegin((SELECT id FROM h), 'tok-idem-h', 'sub-1')$$, 'CB409',
                 'A request with this Idempotency-Key is still being processed; retry it shortly',
                 'a retried submission while the checks run is 409 in progress');
SELECT pg_temp.vfinish((SELECT id FROM h), 'tok-idem-h', ARRAY['pass'], 'sub-1');
SELECT is((SELECT pg_temp.vbegin((SELECT id FROM h), 'tok-idem-h', 'sub-1') -> 'body' ->> 'decision'), 'approved',
          'a retried submission after it finished replays the outcome');
SELECT is((SELECT count(*) FROM corebank.verify_session_events WHERE session_id = (SELECT id FROM h) AND event = 'submitted'),
          1::bigint, 'the replayed submission ran once');

SELECT * FROM finish();
ROLLBACK;
