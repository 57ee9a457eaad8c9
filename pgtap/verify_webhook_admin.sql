-- verify_webhook_admin.sql: webhook subscription management (issue 14, part 7).
--
-- Goal: an endpoint is registered with an optional description and read back
-- without its secret; the list pages newest first with a cursor that must name
-- an endpoint; a rotation keeps the replaced secret for its overlap (0..7 days;
-- 0 keeps none) and the claim hands it to the sender only while the overlap
-- lasts; a disabled endpoint cannot be rotated, pinged or retried; a ping is
-- one webhook.ping event with one delivery, to that endpoint only; the
-- delivery log pages newest first; only a failed delivery can be retried (a
-- delivered or pending one is 409), and a retry is one more attempt due now.
-- Method: the functions as the tier calls them; time is moved by UPDATE
-- (now() is fixed inside the test transaction).
BEGIN;
SELECT plan(41);
\ir helpers/verify.sql

CREATE TEMP TABLE ep AS
    SELECT (corebank.verify_webhook_endpoint_create('https://hooks.example.com/a', 'orders', NULL, pg_temp.sealed('a1')) ->> 'id')::uuid AS a,
           (corebank.verify_webhook_endpoint_create('https://hooks.example.com/b', NULL, NULL, pg_temp.sealed('b1')) ->> 'id')::uuid AS b;
UPDATE corebank.verify_webhook_endpoints SET created_at = now() - interval '1 minute' WHERE id = (SELECT a FROM ep);

-- Registration and reading.
SELECT is(corebank.verify_webhook_endpoint_get((SELECT a FROM ep)) - 'id' - 'createdAt',
          jsonb_build_object('url', 'https://hooks.example.com/a', 'description', 'orders', 'events', NULL, 'status', 'active',
                             'disabledAt', NULL, 'secretRotatedAt', NULL, 'previousSecretExpiresAt', NULL),
          'an endpoint reads back with its description and no secret');
SELECT is(corebank.verify_webhook_endpoint_get(gen_random_uuid()), NULL, 'an unknown endpoint reads as NULL');
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoint_create('ftp://x.example.com', NULL, NULL, pg_temp.sealed('s'))$$,
                 'CBV00', 'url: must be an absolute http(s) URL of at most 2048 characters', 'only http(s) URLs');
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoint_create('https://x.example.com', '', NULL, pg_temp.sealed('s'))$$,
                 'CBV00', 'description: must be 1 to 500 characters without control characters', 'no empty description');
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoint_create('https://x.example.com', E'a\nb', NULL, pg_temp.sealed('s'))$$,
                 'CBV00', 'description: must be 1 to 500 characters without control characters',
                 'no control characters in a description');
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoint_create('https://x.example.com', NULL, NULL, '\x01'::bytea)$$,
                 'CBV00', 'secret_sealed: must be a sealed secret (29 to 1024 bytes)', 'a secret must be sealed');
SELECT is((corebank.verify_webhook_endpoint_add('https://hooks.example.com/c', pg_temp.sealed('c1')) ->> 'description'),
          NULL, 'the 1.3 signature still registers (without a description)');
CREATE TEMP TABLE c AS SELECT id FROM corebank.verify_webhook_endpoints WHERE url = 'https://hooks.example.com/c';
UPDATE corebank.verify_webhook_endpoints SET created_at = now() + interval '1 minute' WHERE id = (SELECT id FROM c);

-- Paging: newest first, a cursor, hasMore.
SELECT is((SELECT array_agg(x ->> 'url') FROM jsonb_array_elements(corebank.verify_webhook_endpoints_page(2, NULL) -> 'data') x),
          ARRAY['https://hooks.example.com/c', 'https://hooks.example.com/b'], 'the first page is the newest');
SELECT is(corebank.verify_webhook_endpoints_page(2, NULL) -> 'hasMore', 'true'::jsonb, 'hasMore when more follow');
SELECT is(corebank.verify_webhook_endpoints_page(2, (SELECT b FROM ep)),
          jsonb_build_object('data', jsonb_build_array(corebank.verify_webhook_endpoint_get((SELECT a FROM ep))),
                             'hasMore', false),
          'the next page starts after the cursor and is the last');
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoints_page(2, gen_random_uuid())$$, 'CBV00',
                 'startingAfter: names no webhook endpoint', 'a cursor must name an endpoint');
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoints_page(101, NULL)$$, 'CBV00',
                 'limit: must be between 1 and 100', 'a page has at most 100 rows');

-- Rotation with an overlap.
SELECT is(corebank.verify_webhook_endpoint_rotate((SELECT a FROM ep), pg_temp.sealed('a2'), 3600) ->> 'previousSecretExpiresAt',
          corebank_internal.verify_iso_utc(now() + interval '1 hour'), 'a rotation keeps the old secret for the overlap');
SELECT results_eq($$SELECT secret_sealed, previous_secret_sealed FROM corebank.verify_webhook_endpoints WHERE id = (SELECT a FROM ep)$$,
                  $$VALUES (pg_temp.sealed('a2'), pg_temp.sealed('a1'))$$, 'the new secret signs, the old one is kept');
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoint_rotate((SELECT a FROM ep), pg_temp.sealed('a3'), 604801)$$,
                 'CBV00', 'overlapSeconds: must be between 0 and 604800 (7 days)', 'an overlap is at most 7 days');
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoint_rotate(gen_random_uuid(), pg_temp.sealed('a3'), 60)$$,
                 'CB404', 'Webhook endpoint not found', 'rotating an unknown endpoint is 404');
SELECT is(corebank.verify_webhook_endpoint_rotate((SELECT b FROM ep), pg_temp.sealed('b2'), 0) -> 'previousSecretExpiresAt',
          'null'::jsonb, 'an overlap of 0 keeps no old secret');
SELECT is((SELECT previous_secret_sealed FROM corebank.verify_webhook_endpoints WHERE id = (SELECT b FROM ep)), NULL,
          'nothing of the old secret stays after a rotation without overlap');

-- A ping: one event, one delivery, for that endpoint; the claim carries the old secret during the overlap.
CREATE TEMP TABLE p AS SELECT corebank.verify_webhook_ping((SELECT a FROM ep)) AS d;
SELECT is((SELECT d ->> 'eventType' FROM p), 'webhook.ping', 'a ping queues a webhook.ping event');
SELECT is((SELECT body::jsonb - 'createdAt' FROM corebank.verify_webhook_events WHERE id = (SELECT (d ->> 'eventId')::uuid FROM p)),
          jsonb_build_object('id', (SELECT d ->> 'eventId' FROM p), 'type', 'webhook.ping',
                             'data', jsonb_build_object('endpointId', (SELECT a FROM ep))),
          'the ping body is thin: id, type, data.endpointId');
SELECT is((SELECT count(*) FROM corebank.verify_webhook_deliveries WHERE event_id = (SELECT (d ->> 'eventId')::uuid FROM p)),
          1::bigint, 'a ping goes to its endpoint only');
CREATE TEMP TABLE c1 AS SELECT * FROM corebank.verify_webhook_claim(10, 40);
SELECT results_eq($$SELECT secret_sealed, previous_secret_sealed FROM c1$$,
                  $$VALUES (pg_temp.sealed('a2'), pg_temp.sealed('a1'))$$,
                  'during the overlap the claim hands the sender both secrets');
SELECT throws_ok($$SELECT corebank.verify_webhook_delivery_retry((SELECT a FROM ep), (SELECT (d ->> 'id')::uuid FROM p))$$,
                 'CB409', 'Webhook delivery is still pending; the sender retries it by itself', 'a pending delivery is not retried');
SELECT corebank.verify_webhook_done((SELECT (d ->> 'id')::uuid FROM p), false, 500, 'HTTP 500', 10, 3600, 1);
SELECT is(corebank.verify_webhook_endpoints_page(1, NULL) IS NOT NULL, true, 'reads still work after a failure');
SELECT is((SELECT x ->> 'status' FROM jsonb_array_elements(corebank.verify_webhook_deliveries_page((SELECT a FROM ep), 20, NULL) -> 'data') x),
          'failed', 'the delivery log shows the failed delivery');

-- Retry of a failed delivery: due now, one more attempt.
SELECT is(corebank.verify_webhook_delivery_retry((SELECT a FROM ep), (SELECT (d ->> 'id')::uuid FROM p)) ->> 'status', 'pending',
          'a failed delivery is requeued');
SELECT is((SELECT next_attempt_at FROM corebank.verify_webhook_deliveries WHERE id = (SELECT (d ->> 'id')::uuid FROM p)), now(),
          'the retry is due at once');
UPDATE corebank.verify_webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = (SELECT a FROM ep);
CREATE TEMP TABLE c2 AS SELECT * FROM corebank.verify_webhook_claim(10, 40);
SELECT results_eq($$SELECT attempts, previous_secret_sealed IS NULL FROM c2$$, $$VALUES (2, true)$$,
                  'the retry is attempt 2, and after the overlap only the new secret signs');
SELECT is(corebank.verify_webhook_done((SELECT delivery_id FROM c2), true, 200, NULL, 10, 3600, 1), 'delivered',
          'the retried attempt is delivered');
SELECT throws_ok($$SELECT corebank.verify_webhook_delivery_retry((SELECT a FROM ep), (SELECT (d ->> 'id')::uuid FROM p))$$,
                 'CB409', 'Webhook delivery was delivered; only a failed delivery can be retried',
                 'a delivered delivery is not retried');
SELECT throws_ok($$SELECT corebank.verify_webhook_delivery_retry((SELECT b FROM ep), (SELECT (d ->> 'id')::uuid FROM p))$$,
                 'CB404', 'Webhook delivery not found', 'a delivery is found only under its own endpoint');
SELECT throws_ok($$SELECT corebank.verify_webhook_deliveries_page(gen_random_uuid(), 20, NULL)$$,
                 'CB404', 'Webhook endpoint not found', 'the log of an unknown endpoint is 404');

-- Delivery log paging.
SELECT corebank.verify_webhook_ping((SELECT a FROM ep));
UPDATE corebank.verify_webhook_deliveries SET created_at = now() - interval '1 minute' WHERE id = (SELECT (d ->> 'id')::uuid FROM p);
SELECT is((SELECT jsonb_array_length(x -> 'data') || ' ' || (x ->> 'hasMore')
           FROM corebank.verify_webhook_deliveries_page((SELECT a FROM ep), 1, NULL) x), '1 true',
          'the log pages: one of two, more follow');
SELECT is((corebank.verify_webhook_deliveries_page((SELECT a FROM ep), 1,
              (SELECT (x -> 'data' -> 0 ->> 'id')::uuid FROM corebank.verify_webhook_deliveries_page((SELECT a FROM ep), 1, NULL) x))
           -> 'data' -> 0 ->> 'id'), (SELECT d ->> 'id' FROM p), 'the second page is the older ping');

-- Event types: an endpoint subscribed to some receives only those (pings regardless).
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoint_create('https://x.example.com', NULL, ARRAY['session.created'], pg_temp.sealed('s'))$$,
                 'CBV00', 'events: must be 1 to 14 distinct known event types',
                 'only known event types');
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoint_create('https://x.example.com', NULL,
                   ARRAY['session.expired', 'session.expired'], pg_temp.sealed('s'))$$,
                 'CBV00', 'events: must be 1 to 14 distinct known event types',
                 'each event type once');
CREATE TEMP TABLE only_cancelled AS
    SELECT (corebank.verify_webhook_endpoint_create('https://hooks.example.com/cancelled', NULL, ARRAY['session.cancelled'],
                                                    pg_temp.sealed('x1')) ->> 'id')::uuid AS id;
SELECT is(corebank.verify_webhook_endpoint_get((SELECT id FROM only_cancelled)) -> 'events', '["session.cancelled"]'::jsonb,
          'the endpoint shows its event types');
CREATE TEMP TABLE fs AS SELECT pg_temp.vsession('liveness', 'tok-f1') AS done, pg_temp.vsession('liveness', 'tok-f2') AS gone;
SELECT pg_temp.vcomplete((SELECT done FROM fs), 'tok-f1', ARRAY['pass']);
SELECT corebank.verify_session_cancel(pg_temp.vkey(), 'cancel-f2', pg_temp.h('{}'), (SELECT gone FROM fs), NULL);
SELECT results_eq($$SELECT e.type FROM corebank.verify_webhook_deliveries d JOIN corebank.verify_webhook_events e ON e.id = d.event_id
                    WHERE d.endpoint_id = (SELECT id FROM only_cancelled) AND e.session_id IS NOT NULL$$,
                  $$VALUES ('session.cancelled')$$, 'an endpoint subscribed to session.cancelled gets no session.completed');
SELECT is((SELECT count(*) FROM corebank.verify_webhook_deliveries d JOIN corebank.verify_webhook_events e ON e.id = d.event_id
           WHERE d.endpoint_id = (SELECT a FROM ep) AND e.session_id IN ((SELECT done FROM fs), (SELECT gone FROM fs))), 2::bigint,
          'an endpoint without event types gets both');

-- A disabled endpoint.
SELECT corebank.verify_webhook_endpoint_disable((SELECT a FROM ep));
SELECT throws_ok($$SELECT corebank.verify_webhook_ping((SELECT a FROM ep))$$, 'CB409', 'Webhook endpoint is disabled',
                 'a disabled endpoint is not pinged');
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoint_rotate((SELECT a FROM ep), pg_temp.sealed('a4'), 60)$$, 'CB409',
                 'Webhook endpoint is disabled', 'a disabled endpoint is not rotated');

SELECT * FROM finish();
ROLLBACK;
