-- verify_outbox.sql: the webhook outbox.
--
-- Goal: completion, cancellation and expiry each queue one event per session
-- (a stable id, a thin body {id, type, createdAt, data: {sessionId}}) with
-- one delivery per active endpoint, in the same transaction as the change;
-- a claim counts the attempt and leases the row (not claimed again until the
-- lease ends, then claimed again: nothing is lost when a sender dies); a 2xx
-- marks it delivered; a failure schedules the retry after base * 2^(n-1)
-- seconds, capped, and gives up after attempts_max; a disabled endpoint's
-- deliveries are abandoned; a late report changes nothing.
-- Method: the functions as the tier's sender calls them; the lease and the
-- backoff are moved by UPDATE (now() is fixed inside the test transaction).
BEGIN;
SELECT plan(22);
\ir helpers/verify.sql

CREATE TEMP TABLE ep AS
    SELECT (corebank.verify_webhook_endpoint_add('https://hooks.example.com/a', pg_temp.sealed('secret-a')) ->> 'id')::uuid AS a,
           (corebank.verify_webhook_endpoint_add('https://hooks.example.com/b', pg_temp.sealed('secret-b')) ->> 'id')::uuid AS b;
SELECT throws_ok($$SELECT corebank.verify_webhook_endpoint_add('ftp://hooks.example.com', pg_temp.sealed('s'))$$, 'CBV00',
                 'url: must be an absolute http(s) URL of at most 2048 characters', 'only http(s) endpoints');

-- Completion queues one event, one delivery per endpoint.
CREATE TEMP TABLE s AS SELECT pg_temp.vsession('liveness', 'tok-o1') AS id;
SELECT pg_temp.vcomplete((SELECT id FROM s), 'tok-o1', ARRAY['pass']);
SELECT is((SELECT count(*) FROM corebank.verify_webhook_events WHERE session_id = (SELECT id FROM s)), 1::bigint,
          'completion queues one event');
CREATE TEMP TABLE ev AS SELECT id, body::jsonb AS body, body AS raw FROM corebank.verify_webhook_events
                        WHERE session_id = (SELECT id FROM s);
SELECT is((SELECT body - 'createdAt' FROM ev),
          jsonb_build_object('id', (SELECT id FROM ev), 'type', 'session.completed',
                             'data', jsonb_build_object('sessionId', (SELECT id FROM s))),
          'the body is thin: id, type, data.sessionId');
SELECT matches((SELECT body ->> 'createdAt' FROM ev), '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$',
               'createdAt is ISO 8601 UTC');
SELECT is((SELECT count(*) FROM corebank.verify_webhook_deliveries WHERE event_id = (SELECT id FROM ev)), 2::bigint,
          'one delivery per active endpoint');

-- Claim, lease, retry.
CREATE TEMP TABLE c1 AS SELECT * FROM corebank.verify_webhook_claim(10, 40);
SELECT is((SELECT count(*) FROM c1), 2::bigint, 'a claim takes the due deliveries');
SELECT is((SELECT DISTINCT body FROM c1), (SELECT raw FROM ev), 'each claim carries the exact stored body');
SELECT is((SELECT array_agg(attempts) FROM c1), ARRAY[1, 1], 'the claim counts the attempt');
SELECT is((SELECT count(*) FROM corebank.verify_webhook_claim(10, 40)), 0::bigint, 'leased rows are not claimed twice');
CREATE TEMP TABLE da AS SELECT delivery_id AS id FROM c1 WHERE endpoint_id = (SELECT a FROM ep);
CREATE TEMP TABLE db AS SELECT delivery_id AS id FROM c1 WHERE endpoint_id = (SELECT b FROM ep);
SELECT is(corebank.verify_webhook_done((SELECT id FROM da), true, 204, NULL, 10, 3600, 5), 'delivered', 'a 2xx is delivered');
SELECT is(corebank.verify_webhook_done((SELECT id FROM db), false, 503, 'HTTP 503', 10, 3600, 5), 'pending',
          'a non-2xx goes back to pending');
SELECT is((SELECT next_attempt_at - now() FROM corebank.verify_webhook_deliveries WHERE id = (SELECT id FROM db)),
          interval '10 seconds', 'the first retry waits base seconds');
UPDATE corebank.verify_webhook_deliveries SET next_attempt_at = now() WHERE id = (SELECT id FROM db);
SELECT is((SELECT event_id FROM corebank.verify_webhook_claim(10, 40)), (SELECT id FROM ev),
          'the retry carries the same event id');
SELECT corebank.verify_webhook_done((SELECT id FROM db), false, NULL, 'timeout', 10, 3600, 5);
SELECT is((SELECT next_attempt_at - now() FROM corebank.verify_webhook_deliveries WHERE id = (SELECT id FROM db)),
          interval '20 seconds', 'the second retry waits twice as long (exponential)');
SELECT is(corebank_internal.verify_webhook_backoff(12, 10, 3600), interval '1 hour', 'the backoff is capped at max');

-- A sender that died: the lease ends and the row comes back.
UPDATE corebank.verify_webhook_deliveries SET next_attempt_at = now() WHERE id = (SELECT id FROM db);
SELECT is((SELECT attempts FROM corebank.verify_webhook_claim(10, 40)), 3, 'claimed again, attempt 3');
UPDATE corebank.verify_webhook_deliveries SET next_attempt_at = now() - interval '1 second' WHERE id = (SELECT id FROM db);
SELECT is((SELECT delivery_id FROM corebank.verify_webhook_claim(10, 40)), (SELECT id FROM db),
          'an unreported claim comes back when its lease has passed: nothing is lost');

-- Giving up, and late reports.
UPDATE corebank.verify_webhook_deliveries SET attempts = 5 WHERE id = (SELECT id FROM db);
SELECT is(corebank.verify_webhook_done((SELECT id FROM db), false, 500, 'HTTP 500', 10, 3600, 5), 'failed',
          'the last allowed attempt failing marks the delivery failed');
SELECT is(corebank.verify_webhook_done((SELECT id FROM da), false, 500, 'late', 10, 3600, 5), 'delivered',
          'a late report on a delivered row changes nothing');

-- Cancellation and expiry queue their events once; disabled endpoints are skipped.
SELECT corebank.verify_webhook_endpoint_disable((SELECT b FROM ep));
CREATE TEMP TABLE t AS SELECT pg_temp.vsession('liveness', 'tok-o2') AS id, pg_temp.vsession('liveness', 'tok-o3') AS x;
SELECT corebank.verify_session_cancel(pg_temp.vkey(), 'cancel-o2', pg_temp.h('{}'), (SELECT id FROM t), NULL);
SELECT pg_temp.vage((SELECT x FROM t), interval '2 hours');
SELECT corebank.verify_maintenance(120);
SELECT corebank.verify_maintenance(120);
SELECT results_eq($$SELECT e.type, count(d.id) FROM corebank.verify_webhook_events e
                    LEFT JOIN corebank.verify_webhook_deliveries d ON d.event_id = e.id
                    WHERE e.session_id IN ((SELECT id FROM t), (SELECT x FROM t)) GROUP BY e.type ORDER BY e.type$$,
                  $$VALUES ('session.cancelled', 1::bigint), ('session.expired', 1::bigint)$$,
                  'cancel and expiry queue one event each, for the one active endpoint');
CREATE TEMP TABLE u AS SELECT pg_temp.vsession('liveness', 'tok-o4') AS id;
SELECT corebank.verify_session_cancel(pg_temp.vkey(), 'cancel-o4', pg_temp.h('{}'), (SELECT id FROM u), NULL);
SELECT corebank.verify_webhook_endpoint_disable((SELECT a FROM ep));
SELECT is((SELECT d.status FROM corebank.verify_webhook_deliveries d JOIN corebank.verify_webhook_events e ON e.id = d.event_id
           WHERE e.session_id = (SELECT id FROM u)), 'abandoned', 'disabling an endpoint abandons its pending deliveries');
SELECT is((SELECT count(*) FROM corebank.verify_webhook_claim(100, 40) c
           JOIN corebank.verify_webhook_events e ON e.id = c.event_id WHERE e.session_id = (SELECT id FROM u)),
          0::bigint, 'abandoned deliveries are never claimed');

SELECT * FROM finish();
ROLLBACK;
