-- events_reads.sql: the read operations of the event service (docs/events.md,
-- "Reads").
--
-- Goal: the feed and a customer's events page in (occurredAt, sequence)
-- order with an opaque cursor and no row twice; lookups normalise the value
-- like ingest and answer found / not_found / unknown_platform /
-- invalid_value; traits only add up stored money strings, exactly, per
-- currency; loyalty member mapping answers created / unchanged /
-- member_taken / customer_not_found. Method: ingest, then call the reads.
BEGIN;
SELECT plan(27);
\ir helpers/events.sql

-- Decodes a page cursor into (micros, id), as the tier does.
CREATE FUNCTION pg_temp.after(cursor text) RETURNS bigint[]
    LANGUAGE sql IMMUTABLE
    AS $f$
    SELECT ARRAY[split_part(t, ':', 2)::bigint, split_part(t, ':', 3)::bigint]
    FROM (SELECT convert_from(decode(translate(cursor, '-_', '+/') || repeat('=', (4 - length(cursor) % 4) % 4), 'base64'),
                              'UTF8') AS t) x
$f$;

SELECT pg_temp.ingest('reads',
    pg_temp.ev('f3', 'page.viewed', '{"platform":"web","userId":"r-u1"}', '{"path":"/3"}', '1990-01-03T00:00:00Z'),
    pg_temp.ev('f1', 'page.viewed', '{"platform":"web","userId":"r-u1"}', '{"path":"/1"}', '1990-01-01T00:00:00Z'),
    pg_temp.ev('f2b', 'page.viewed', '{"platform":"web","userId":"r-u2"}', '{"path":"/2b"}', '1990-01-02T00:00:00.5Z'),
    pg_temp.ev('f2a', 'page.viewed', '{"platform":"web","userId":"r-u1"}', '{"path":"/2a"}', '1990-01-02T00:00:00.5Z'),
    pg_temp.ev('f4', 'page.viewed', '{"platform":"web","userId":"r-u2"}', '{"path":"/4"}', '1990-01-04T00:00:00Z'));

-- The feed.
CREATE TEMP TABLE pages (n int, page jsonb);
INSERT INTO pages SELECT 1, corebank.events_feed(corebank_internal.events_micros('1989-12-31T23:59:59Z'), 0, 2);
INSERT INTO pages SELECT 2, corebank.events_feed((pg_temp.after(page ->> 'nextCursor'))[1], (pg_temp.after(page ->> 'nextCursor'))[2], 2)
FROM pages WHERE n = 1;
INSERT INTO pages SELECT 3, corebank.events_feed((pg_temp.after(page ->> 'nextCursor'))[1], (pg_temp.after(page ->> 'nextCursor'))[2], 2)
FROM pages WHERE n = 2;
SELECT is((SELECT jsonb_path_query_array(page, '$.items[*].eventId') FROM pages WHERE n = 1), '["f1", "f2b"]'::jsonb,
          'the first page holds the oldest two; equal occurredAt keeps ingest order');
SELECT is((SELECT jsonb_path_query_array(page, '$.items[*].eventId') FROM pages WHERE n = 2), '["f2a", "f3"]'::jsonb,
          'the cursor continues exactly after the last event of the page');
SELECT is((SELECT jsonb_path_query_array(page, '$.items[*].eventId') -> 0 FROM pages WHERE n = 3), '"f4"'::jsonb,
          'the third page continues after the second');
SELECT matches((SELECT page ->> 'nextCursor' FROM pages WHERE n = 1), '^[A-Za-z0-9_-]+$', 'the cursor is base64url text');
SELECT is((SELECT page -> 'items' -> 0 ->> 'customerId' FROM pages WHERE n = 1), pg_temp.public_id('user:web', 'r-u1'),
          'feed items carry the customer''s public id');
SELECT is((SELECT page -> 'items' -> 0 -> 'payload' FROM pages WHERE n = 1), '{"path": "/1"}'::jsonb,
          'feed items carry the payload as stored');
SELECT is((SELECT page -> 'items' -> 1 ->> 'occurredAt' FROM pages WHERE n = 1), '1990-01-02T00:00:00.500000Z',
          'occurredAt is ISO 8601 UTC with Z, microseconds when there is a fraction');
SELECT throws_ok($$SELECT corebank.events_feed(NULL, NULL, 0)$$, 'CBV00', 'limit: must be from 1 to 500', 'limit at least 1');
SELECT throws_ok($$SELECT corebank.events_feed(NULL, NULL, 501)$$, 'CBV00', 'limit: must be from 1 to 500', 'limit at most 500');

-- A customer's events.
DELETE FROM pages;
INSERT INTO pages SELECT 1, corebank.events_customer_events(pg_temp.public_id('user:web', 'r-u1'), NULL, NULL, 2);
INSERT INTO pages SELECT 2, corebank.events_customer_events(pg_temp.public_id('user:web', 'r-u1'),
                                                            (pg_temp.after(page ->> 'nextCursor'))[1],
                                                            (pg_temp.after(page ->> 'nextCursor'))[2], 2)
FROM pages WHERE n = 1;
SELECT is((SELECT jsonb_path_query_array(page, '$.items[*].eventId') FROM pages WHERE n = 1), '["f1", "f2a"]'::jsonb,
          'a customer''s events, oldest first, one page');
SELECT is((SELECT (page -> 'items', page -> 'nextCursor') FROM pages WHERE n = 2)::text,
          (SELECT (jsonb_path_query_array(page, '$.items[*]'), 'null'::jsonb) FROM pages WHERE n = 2)::text,
          'the last page has no nextCursor');
SELECT is((SELECT jsonb_path_query_array(page, '$.items[*].eventId') FROM pages WHERE n = 2), '["f3"]'::jsonb,
          'and holds the rest');
SELECT is(corebank.events_customer_events('cus_aaaaaaaaaaaaaaaaaaaa', NULL, NULL, 10), NULL::jsonb, 'an unknown customer has no events (NULL)');

-- Lookups.
SELECT pg_temp.ingest('reads', pg_temp.ev('l1', 'identity.registered', '{"platform":"android","userId":"r-u3","email":"Look.Up@Example.com","phone":"0774000001"}'));
SELECT is(corebank.events_customer_lookup('email', ' look.up@EXAMPLE.com ', NULL) -> 'customer' ->> 'customerId',
          pg_temp.public_id('user:android', 'r-u3'), 'lookup by email normalises like ingest');
SELECT is(corebank.events_customer_lookup('phone', '+263 77 400 0001', NULL) ->> 'outcome', 'found', 'lookup by phone normalises like ingest');
SELECT is(corebank.events_customer_lookup('userId', 'r-u3', 'android') ->> 'outcome', 'found', 'lookup by userId on its platform');
SELECT is(corebank.events_customer_lookup('userId', 'r-u3', 'web') ->> 'outcome', 'not_found', 'a userId is per platform');
SELECT is(corebank.events_customer_lookup('userId', 'r-u3', 'tv') ->> 'outcome', 'unknown_platform', 'a platform outside the registry');
SELECT is(corebank.events_customer_lookup('phone', 'not a phone', NULL) ->> 'outcome', 'invalid_value', 'a phone that is no phone number');
SELECT throws_ok($$SELECT corebank.events_customer_lookup('userId', 'r-u3', NULL)$$, 'CBV00', 'platform: is required with userId',
                 'userId needs platform');

-- Traits: sums of stored money strings, per currency.
SELECT pg_temp.ingest('reads',
    pg_temp.ev('t1', 'order.paid', '{"platform":"web","userId":"r-t"}', '{"orderId":"o1","subtotal":"0.10","total":"0.10","currency":"USD"}'),
    pg_temp.ev('t2', 'order.paid', '{"platform":"web","userId":"r-t"}', '{"orderId":"o2","subtotal":"0.20","total":"0.20","currency":"USD"}'),
    pg_temp.ev('t3', 'payment.completed', '{"platform":"web","userId":"r-t"}', '{"paymentId":"p1","amount":"1.005","currency":"USD"}'),
    pg_temp.ev('t4', 'billpay.completed', '{"platform":"web","userId":"r-t"}', '{"transactionId":"x","amount":"2","total":"3","currency":"ZWG","channel":"water"}'),
    pg_temp.ev('t5', 'order.created', '{"platform":"web","userId":"r-t"}', '{"orderId":"o3","total":"99","currency":"USD"}'));
SELECT is(corebank.events_customer_traits(pg_temp.public_id('user:web', 'r-t')) -> 'totalPaid',
          '{"USD": "1.305", "ZWG": "3"}'::jsonb, 'totalPaid adds order.paid.total, payment.completed.amount, billpay.completed.total exactly');
SELECT is(corebank.events_customer_traits(pg_temp.public_id('user:web', 'r-t')) -> 'sums',
          '{"order.paid.total": {"USD": "0.30"}, "order.paid.subtotal": {"USD": "0.30"}, "order.created.total": {"USD": "99"},
            "billpay.completed.total": {"ZWG": "3"}, "billpay.completed.amount": {"ZWG": "2"},
            "payment.completed.amount": {"USD": "1.005"}}'::jsonb, 'sums has every stored money field on its own');

-- Loyalty members.
SELECT is(corebank.events_loyalty_member_map('R-M1', pg_temp.public_id('user:web', 'r-u1')) ->> 'outcome', 'created', 'a new mapping');
SELECT is(corebank.events_loyalty_member_map('R-M1', pg_temp.public_id('user:web', 'r-u1')) ->> 'outcome', 'unchanged',
          'the same mapping again is unchanged (idempotent)');
SELECT is(corebank.events_loyalty_member_map('R-M1', pg_temp.public_id('user:web', 'r-u2')),
          jsonb_build_object('outcome', 'member_taken', 'mapping', corebank.events_loyalty_member_get('R-M1')),
          'a member id mapped to another customer is taken, naming the owner');
SELECT is(corebank.events_loyalty_member_map('R-M2', 'cus_aaaaaaaaaaaaaaaaaaaa') ->> 'outcome', 'customer_not_found',
          'an unknown customer');
SELECT throws_ok($$SELECT corebank.events_loyalty_member_map('bad id', 'cus_aaaaaaaaaaaaaaaaaaaa')$$, 'CBV00',
                 'memberId: must be 1 to 64 of A-Z a-z 0-9 . _ : -', 'member ids are bounded');

SELECT * FROM finish();
ROLLBACK;
