-- events_rollups.sql: the parity and insight rollups (docs/events.md,
-- "Parity" and "Insights").
--
-- Goal: each ingest batch adds its stored events, and only those, to
-- event_parity_hourly (count and checksum per source, UTC hour and type);
-- duplicates (re-posted or repeated in a batch) and invalid events never
-- count; the checksum is the documented formula (sum mod 2^64 of the first 8
-- bytes of sha256(eventId), as hex), checked against values computed outside
-- the database; the rollup always equals a full recomputation from
-- corebank.events; parity and insights validate their windows; insights give
-- first/last seen, counts by type and exact money totals, and after a merge
-- the survivor's insights hold both customers' histories.
-- Method: ingest batches, read the tables and the two read functions.
BEGIN;
SELECT plan(30);
\ir helpers/events.sql

-- The formula, against values computed with Python's hashlib.
SELECT is(corebank_internal.events_id_hash('o-1'), 6682721121708123522::bigint,
          'an eventId''s term: the first 8 bytes of sha256, big-endian');
SELECT is(corebank_internal.events_id_hash('r-1')::numeric + 18446744073709551616, 11960003127341904488::numeric,
          'a term of 2^63 or more is its unsigned value less 2^64 (two''s complement)');
SELECT is(corebank_internal.events_checksum_hex(0), '0000000000000000', 'a checksum is 16 hex digits');
SELECT is(corebank_internal.events_checksum_hex(11960003127341904488), 'a5fa777a3dc67268',
          'a checksum above 2^63 is printed as its unsigned hex');

-- Batch 1: two orders of ann in one hour, one repeated in the batch, one invalid event.
SELECT is(pg_temp.ingest('par',
    pg_temp.ev('o-1', 'order.paid', '{"platform":"web","userId":"ru-ann"}',
               '{"orderId":"1","subtotal":"0.10","total":"0.10","currency":"USD"}', '2026-11-21T10:05:00Z'),
    pg_temp.ev('o-2', 'order.paid', '{"platform":"web","userId":"ru-ann"}',
               '{"orderId":"2","subtotal":"0.20","total":"0.20","currency":"USD"}', '2026-11-21T10:50:00Z'),
    pg_temp.ev('o-1', 'order.paid', '{"platform":"web","userId":"ru-ann"}',
               '{"orderId":"1","subtotal":"0.10","total":"0.10","currency":"USD"}', '2026-11-21T10:05:00Z'),
    pg_temp.ev('x-1', 'no.such.type', '{"platform":"web","userId":"ru-ann"}', '{}', '2026-11-21T10:06:00Z'))
    - 'results', '{"accepted": 2, "duplicates": 1, "invalid": 1}'::jsonb, 'batch 1: 2 accepted, 1 duplicate, 1 invalid');
SELECT is((SELECT (sum(event_count), corebank_internal.events_checksum_hex(sum(checksum) % 18446744073709551616))::text
           FROM corebank.event_parity_hourly WHERE source = 'par' AND type = 'order.paid'
             AND window_start = '2026-11-21T10:00:00Z'),
          '(2,8829c03458df32cc)', 'one hour''s orders: count 2 and the checksum of o-1 and o-2 (repeat not counted)');
SELECT is((SELECT count(*) FROM corebank.event_parity_hourly WHERE type = 'no.such.type'), 0::bigint,
          'an invalid event adds no parity row');

-- Batch 2: the same orders again (duplicates), and four new events on two days.
SELECT is(pg_temp.ingest('par',
    pg_temp.ev('o-1', 'order.paid', '{"platform":"web","userId":"ru-ann"}',
               '{"orderId":"1","subtotal":"0.10","total":"0.10","currency":"USD"}', '2026-11-21T10:05:00Z'),
    pg_temp.ev('o-2', 'order.paid', '{"platform":"web","userId":"ru-ann"}',
               '{"orderId":"2","subtotal":"0.20","total":"0.20","currency":"USD"}', '2026-11-21T10:50:00Z'),
    pg_temp.ev('o-3', 'page.viewed', '{"platform":"web","userId":"ru-ann"}', '{"path":"/"}', '2026-11-21T11:00:00Z'),
    pg_temp.ev('r-1', 'payment.completed', '{"platform":"web","userId":"ru-ann"}',
               '{"paymentId":"p1","amount":"5","currency":"ZWG"}', '2026-11-22T09:00:00Z'),
    pg_temp.ev('r-2', 'page.viewed', '{"platform":"web"}', '{"path":"/anon"}', '2026-11-22T09:10:00Z'),
    pg_temp.ev('r-3', 'payment.completed', '{"platform":"web","userId":"ru-ann"}',
               '{"paymentId":"p3","amount":"2.5","currency":"ZWG"}', '2026-11-22T09:59:59.999999Z'))
    - 'results', '{"accepted": 4, "duplicates": 2, "invalid": 0}'::jsonb, 'batch 2: 4 accepted, 2 duplicates');
SELECT is((SELECT sum(event_count)::bigint FROM corebank.event_parity_hourly WHERE source = 'par' AND type = 'order.paid'),
          2::bigint, 're-posted events do not count again');
SELECT is((SELECT (sum(event_count), corebank_internal.events_checksum_hex(sum(checksum) % 18446744073709551616))::text
           FROM corebank.event_parity_hourly WHERE source = 'par' AND type = 'payment.completed'),
          '(2,62cd5a10f3835502)', 'two payments in one hour: their sum wraps mod 2^64');
SELECT is((SELECT sum(event_count)::bigint FROM corebank.event_parity_hourly WHERE source = 'par' AND type = 'page.viewed'
             AND window_start = '2026-11-22T09:00:00Z'),
          1::bigint, 'an event without a customer counts for parity');

-- Another source with the same eventId is another row.
SELECT pg_temp.ingest('other', pg_temp.ev('o-1', 'order.paid', '{"platform":"web","userId":"ru-cat"}',
                                          '{"orderId":"9","subtotal":"1","total":"1","currency":"USD"}', '2026-11-21T10:05:00Z'));
SELECT is((SELECT array_agg(source || ':' || n ORDER BY source)
           FROM (SELECT source, sum(event_count) AS n FROM corebank.event_parity_hourly WHERE type = 'order.paid'
                 GROUP BY source) AS t), ARRAY['other:1', 'par:2'], 'each source has its own rows');

-- The parity read.
SELECT is(corebank.events_parity('par', '2026-11-21T00:00:00Z', '2026-11-23T00:00:00Z', 'hour', NULL) - 'windows',
          '{"source": "par", "granularity": "hour", "from": "2026-11-21T00:00:00Z", "to": "2026-11-23T00:00:00Z",
            "type": null, "count": 6, "checksum": "1d743ca9e878986b"}'::jsonb,
          'parity totals: six events, the checksum of all six ids');
SELECT is(corebank.events_parity('par', '2026-11-21T00:00:00Z', '2026-11-23T00:00:00Z', 'hour', NULL) -> 'windows',
          '[{"windowStart": "2026-11-21T10:00:00Z", "type": "order.paid", "count": 2, "checksum": "8829c03458df32cc"},
            {"windowStart": "2026-11-21T11:00:00Z", "type": "page.viewed", "count": 1, "checksum": "115d60e067f82fe0"},
            {"windowStart": "2026-11-22T09:00:00Z", "type": "page.viewed", "count": 1, "checksum": "211fc184341de0bd"},
            {"windowStart": "2026-11-22T09:00:00Z", "type": "payment.completed", "count": 2, "checksum": "62cd5a10f3835502"}]'::jsonb,
          'parity by hour: one window per hour and type that has events, in order');
SELECT is(corebank.events_parity('par', '2026-11-21T00:00:00Z', '2026-11-23T00:00:00Z', 'day', 'page.viewed') -> 'windows',
          '[{"windowStart": "2026-11-21T00:00:00Z", "type": "page.viewed", "count": 1, "checksum": "115d60e067f82fe0"},
            {"windowStart": "2026-11-22T00:00:00Z", "type": "page.viewed", "count": 1, "checksum": "211fc184341de0bd"}]'::jsonb,
          'parity by day, one type');
SELECT is(corebank.events_parity('par', '2026-11-22T10:00:00Z', '2026-11-22T11:00:00Z', 'hour', NULL)
              - 'from' - 'to' - 'source' - 'granularity' - 'type',
          '{"count": 0, "checksum": "0000000000000000", "windows": []}'::jsonb, 'an empty range: count 0, checksum 0');
SELECT throws_ok($$SELECT corebank.events_parity('par', '2026-11-21T10:30:00Z', '2026-11-21T12:00:00Z', 'hour', NULL)$$,
                 'CBV00', 'from, to: must start a UTC hour', 'parity refuses a range that does not start an hour');
SELECT throws_ok($$SELECT corebank.events_parity('par', '2026-11-21T00:00:00Z', '2026-11-21T12:00:00Z', 'day', NULL)$$,
                 'CBV00', 'from, to: must start a UTC day', 'parity by day refuses a range that ends mid-day');
SELECT throws_ok($$SELECT corebank.events_parity('par', '2026-11-01T00:00:00Z', '2026-11-08T01:00:00Z', 'hour', NULL)$$,
                 'CBV00', 'from, to: at most 168 hours or 31 days apart', 'parity by hour covers at most 168 hours');
SELECT throws_ok($$SELECT corebank.events_parity('par', '2026-10-01T00:00:00Z', '2026-11-02T00:00:00Z', 'day', NULL)$$,
                 'CBV00', 'from, to: at most 168 hours or 31 days apart', 'parity by day covers at most 31 days');
SELECT throws_ok($$SELECT corebank.events_parity('par', '2026-11-21T00:00:00Z', '2026-11-22T00:00:00Z', 'week', NULL)$$,
                 'CBV00', 'granularity: must be hour or day', 'parity refuses an unknown granularity');

-- Insights of ann.
SELECT is(corebank.events_customer_insights(pg_temp.public_id('user:web', 'ru-ann'), '2026-11-21', '2026-11-22')
              - 'customerId' - 'days',
          '{"firstSeenAt": "2026-11-21T10:05:00Z", "lastSeenAt": "2026-11-22T09:59:59.999999Z",
            "from": "2026-11-21", "to": "2026-11-22", "eventCount": 5,
            "countsByType": {"order.paid": 2, "page.viewed": 1, "payment.completed": 2},
            "money": {"order.paid.subtotal": {"USD": "0.30"}, "order.paid.total": {"USD": "0.30"},
                      "payment.completed.amount": {"ZWG": "7.5"}},
            "totalPaid": {"USD": "0.30", "ZWG": "7.5"}}'::jsonb,
          'insights: first and last seen, counts by type, exact money totals per field and currency');
SELECT is(corebank.events_customer_insights(pg_temp.public_id('user:web', 'ru-ann'), '2026-11-22', '2026-11-22') -> 'days',
          '[{"day": "2026-11-22", "eventCount": 2, "countsByType": {"payment.completed": 2},
             "money": {"payment.completed.amount": {"ZWG": "7.5"}}}]'::jsonb,
          'insights per day keep to the window');
SELECT is(corebank.events_customer_insights('cus_aaaaaaaaaaaaaaaaaaaa', '2026-11-21', '2026-11-22'), NULL,
          'insights of an unknown customer are NULL');
SELECT throws_ok($$SELECT corebank.events_customer_insights('cus_aaaaaaaaaaaaaaaaaaaa', '2026-11-22', '2026-11-21')$$,
                 'CBV00', 'from, to: both are required and to must not be before from', 'insights refuse a reversed window');
SELECT throws_ok($$SELECT corebank.events_customer_insights('cus_aaaaaaaaaaaaaaaaaaaa', '2026-01-01', '2026-04-03')$$,
                 'CBV00', 'from, to: at most 92 days', 'insights cover at most 92 days');

-- A merge: ben's history shows under ann.
SELECT pg_temp.ingest('merge',
    pg_temp.ev('b-1', 'page.viewed', '{"platform":"web","userId":"ru-ben","email":"ben@example.com"}', '{"path":"/"}',
               '2026-11-21T12:00:00Z'),
    pg_temp.ev('b-2', 'payment.completed', '{"platform":"web","userId":"ru-ben"}',
               '{"paymentId":"b2","amount":"1.25","currency":"USD"}', '2026-11-20T12:30:00Z'));
CREATE TEMP TABLE ben AS SELECT pg_temp.owner('user:web', 'ru-ben') AS id, pg_temp.public_id('user:web', 'ru-ben') AS public_id;
SELECT is(corebank.events_customer_insights((SELECT public_id FROM ben), '2026-11-20', '2026-11-23') -> 'countsByType',
          '{"page.viewed": 1, "payment.completed": 1}'::jsonb, 'before the merge ben''s insights are his own');
SELECT is(pg_temp.outcome(pg_temp.ingest('merge', pg_temp.ev('m-1', 'identity.claimed', '{"platform":"web","userId":"ru-ann"}',
          '{"claimedType":"email","claimedValue":"ben@example.com"}', '2026-11-23T08:00:00Z')), 0), 'accepted',
          'ann claims ben''s email');
SELECT is(corebank.events_customer_insights((SELECT public_id FROM ben), '2026-11-20', '2026-11-23')
              - 'days' - 'from' - 'to',
          jsonb_build_object('customerId', pg_temp.public_id('user:web', 'ru-ann'),
                             'firstSeenAt', '2026-11-20T12:30:00Z', 'lastSeenAt', '2026-11-23T08:00:00Z',
                             'eventCount', 8,
                             'countsByType', '{"identity.claimed": 1, "order.paid": 2, "page.viewed": 2, "payment.completed": 3}'::jsonb,
                             'money', '{"order.paid.subtotal": {"USD": "0.30"}, "order.paid.total": {"USD": "0.30"},
                                        "payment.completed.amount": {"USD": "1.25", "ZWG": "7.5"}}'::jsonb,
                             'totalPaid', '{"USD": "1.55", "ZWG": "7.5"}'::jsonb),
          'the merged customer''s id reads the survivor, whose insights hold both histories');

-- The invariant: the rollups equal a recomputation from the stored events.
SELECT set_eq($$SELECT source, window_start, type, sum(event_count), sum(checksum) % 18446744073709551616
                FROM corebank.event_parity_hourly GROUP BY 1, 2, 3$$,
              $$SELECT e.source, date_trunc('hour', e.occurred_at, 'UTC'), e.type, count(*),
                       (sum(corebank_internal.events_id_hash(e.event_id)) % 18446744073709551616
                        + 18446744073709551616) % 18446744073709551616
                FROM corebank.events e GROUP BY 1, 2, 3$$,
              'event_parity_hourly equals a recount of corebank.events');

SELECT * FROM finish();
ROLLBACK;
