-- events_ingest.sql: corebank.events_ingest, the batch, the registry and dedupe.
--
-- Goal: one call ingests a batch and reports each event inline; the registry
-- errors have the exact documented strings in the documented order of
-- checks; money strings and extra payload fields are stored verbatim;
-- dedupe is per (source, eventId), within a batch and across batches, and a
-- duplicate changes nothing; a malformed batch is refused whole (CBV00);
-- each event runs in its own subtransaction, so a data error in one event
-- rolls back only that event while any other error fails the call.
-- Method: call the function directly and read the tables.
BEGIN;
SELECT plan(53);
\ir helpers/events.sql

CREATE TEMP TABLE r (name text PRIMARY KEY, result jsonb);
CREATE FUNCTION pg_temp.res(n text) RETURNS jsonb LANGUAGE sql STABLE AS $f$ SELECT result FROM r WHERE name = n $f$;

-- The result envelope.
INSERT INTO r VALUES ('mixed', pg_temp.ingest('src-a',
    pg_temp.ev('m1', 'page.viewed', '{"platform":"web","userId":"ing-u1"}', '{"path":"/home"}'),
    pg_temp.ev('m2', 'no.such.type', '{"platform":"web","userId":"ing-u1"}'),
    pg_temp.ev('m1', 'page.viewed', '{"platform":"web","userId":"ing-u1"}', '{"path":"/home"}')));
SELECT is((SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(pg_temp.res('mixed')) AS k),
          ARRAY['accepted', 'duplicates', 'invalid', 'results'], 'the result has results, accepted, duplicates, invalid');
SELECT is(pg_temp.res('mixed') - 'results', '{"accepted": 1, "duplicates": 1, "invalid": 1}'::jsonb,
          'the counts add up per status');
SELECT is(pg_temp.res('mixed') -> 'results' -> 0, '{"eventId": "m1", "status": "accepted"}'::jsonb,
          'an accepted result is {eventId, status}');
SELECT is(pg_temp.res('mixed') -> 'results' -> 1,
          '{"eventId": "m2", "status": "invalid", "error": "unknown event type ''no.such.type''"}'::jsonb,
          'an invalid result carries the error string');
SELECT is(pg_temp.outcome(pg_temp.res('mixed'), 2), 'duplicate', 'the same eventId twice in one batch: duplicate the second time');
SELECT is(pg_temp.stored('src-a'), 1::bigint, 'one event stored');

-- The registry, in the documented order of checks.
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r1', 'order.paid', '{"platform":"tv"}', '{}')), 0),
          'invalid: unknown platform ''tv''', 'the platform is checked before the payload');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r2', 'order.paid', '{"platform":"web"}', '{"total":"x"}')), 0),
          'invalid: missing required payload field ''orderId''', 'the first missing field in registry order is named');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r3', 'order.paid', '{"platform":"web"}',
                                                               '{"orderId":"o","subtotal":"1","total":"-1","currency":"USD"}')), 0),
          'invalid: invalid money field ''total'': must be a decimal string >= 0', 'a negative amount is invalid');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r4', 'order.paid', '{"platform":"web"}',
                                                               '{"orderId":"o","subtotal":10,"total":"10","currency":"USD"}')), 0),
          'invalid: invalid money field ''subtotal'': must be a decimal string >= 0', 'a JSON number is not money');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r5', 'payment.completed', '{"platform":"web"}',
                                                               '{"paymentId":"p","amount":"1e3","currency":"USD"}')), 0),
          'invalid: invalid money field ''amount'': must be a decimal string >= 0', 'an exponent is not money');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r6', 'payment.completed', '{"platform":"web"}',
                                                               '{"paymentId":"p","amount":"10.","currency":"USD"}')), 0),
          'invalid: invalid money field ''amount'': must be a decimal string >= 0', '"10." is not money');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r7', 'payment.completed', '{"platform":"web"}',
                                                               '{"paymentId":"  ","amount":"1","currency":"USD"}')), 0),
          'invalid: missing required payload field ''paymentId''', 'a blank string counts as missing');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r8', 'payment.completed', '{"platform":"web"}',
                                                               '{"paymentId":null,"amount":"1","currency":"USD"}')), 0),
          'invalid: missing required payload field ''paymentId''', 'null counts as missing');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r9', 'consent.updated', '{"platform":"web","userId":"ing-u1"}',
                                                               '{"purpose":"marketing","status":"maybe"}')), 0),
          'invalid: invalid payload field ''status'': must be granted or revoked', 'consent status must be granted or revoked');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r10', 'identity.claimed', '{"platform":"web","userId":"ing-u1"}',
                                                               '{"claimedType":"sessionId","claimedValue":"s"}')), 0),
          'invalid: invalid payload field ''claimedType'': must be one of userId, zbIdSubject, phone, email, nationalId',
          'only the documented identifier types can be claimed');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r11', 'order.created', '{"platform":"web"}',
                                                               '{"orderId":"o","total":"5","currency":"USD","items":[{"name":"x"}]}')), 0),
          'invalid: missing required payload field ''items[0].productId''', 'each order item needs a productId');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r12', 'order.created', '{"platform":"web"}',
                                                               '{"orderId":"o","total":"5","currency":"USD","items":[{"productId":"p","unitPrice":"-2"}]}')), 0),
          'invalid: invalid money field ''items[0].unitPrice'': must be a decimal string >= 0', 'a unit price is money');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r13', 'consent.updated', '{"platform":"web"}',
                                                               '{"purpose":"marketing","status":"granted"}')), 0),
          'invalid: identity names no customer: consent.updated needs one of userId, zbIdSubject, phone, email, nationalId, sessionId',
          'a consent needs a customer');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r14', 'page.viewed', '{"platform":"web"}', '{"path":"/"}')), 0),
          'accepted', 'an ordinary event needs no identifier (stored without a customer)');
SELECT is((SELECT customer_id FROM corebank.events WHERE source = 'src-reg' AND event_id = 'r14'), NULL::uuid,
          'an event without identifiers has no customer');
SELECT is(pg_temp.stored('src-reg'), 1::bigint, 'invalid events are never stored');

-- Inactive platforms.
SELECT lives_ok($$SELECT corebank.events_configure('{web,android,ios,ussd,whatsapp,pos}', '{ussd}', '263')$$,
                'a platform can be configured inactive');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r15', 'page.viewed', '{"platform":"ussd"}', '{"path":"/"}')), 0),
          'invalid: inactive platform ''ussd''', 'an inactive platform makes the event invalid');
SELECT lives_ok($$SELECT corebank.events_configure('{web,android,ios,ussd,whatsapp,kiosk}', '{}', '263')$$,
                'a platform can be renamed in the configuration');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-reg', pg_temp.ev('r16', 'page.viewed', '{"platform":"pos"}', '{"path":"/"}')), 0),
          'invalid: inactive platform ''pos''', 'a platform no longer configured stays, inactive');
SELECT throws_ok($$SELECT corebank.events_configure('{web,android,ios}', '{}', '263')$$, 'CBV00', NULL,
                 'the registry has exactly six platforms');

-- Money and extra fields are stored exactly as sent.
SELECT is(pg_temp.outcome(pg_temp.ingest('src-money', pg_temp.ev('v1', 'order.paid', '{"platform":"web","userId":"ing-u2"}',
    '{"orderId":"o1","subtotal":"007.50","total":"7.500","currency":"USD","note":{"n":1.50,"big":123456789012345678901234567890}}')), 0),
          'accepted', 'an order with extra fields is accepted');
SELECT is((SELECT payload FROM corebank.events WHERE source = 'src-money' AND event_id = 'v1')::text,
          '{"note": {"n": 1.50, "big": 123456789012345678901234567890}, "total": "7.500", "orderId": "o1", "currency": "USD", "subtotal": "007.50"}',
          'money strings and extra numbers are stored verbatim');
SELECT is((SELECT schema_version FROM corebank.events WHERE source = 'src-money' AND event_id = 'v1'), 1,
          'schemaVersion defaults to 1');
SELECT is(pg_temp.outcome(corebank.events_ingest('src-money',
    '[{"eventId":"v2","type":"identity.registered","schemaVersion":3,"occurredAt":"2026-11-21T10:00:00.123456Z","identity":{"platform":"web","userId":"ing-u2"}}]'), 0),
          'accepted', 'an event without payload is accepted');
SELECT is((SELECT (payload, schema_version, occurred_at)::text FROM corebank.events WHERE source = 'src-money' AND event_id = 'v2'),
          ('{}'::jsonb, 3, '2026-11-21T10:00:00.123456Z'::timestamptz)::text,
          'payload defaults to {}; schemaVersion and occurredAt are kept');

-- Dedupe across batches and sources.
SELECT is(pg_temp.outcome(pg_temp.ingest('src-a', pg_temp.ev('m1', 'page.viewed',
    '{"platform":"web","userId":"ing-u1","email":"new-ident@example.com"}', '{"path":"/changed"}')), 0),
          'duplicate', 'a re-post of a stored event is a duplicate');
SELECT is((SELECT payload ->> 'path' FROM corebank.events WHERE source = 'src-a' AND event_id = 'm1'), '/home',
          'the duplicate did not change the stored event');
SELECT is(pg_temp.owner('email', 'new-ident@example.com'), NULL::uuid,
          'the duplicate did not attach the identifier it carried');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-b', pg_temp.ev('m1', 'page.viewed', '{"platform":"web","userId":"ing-u1"}',
                                                             '{"path":"/home"}')), 0),
          'accepted', 'the same eventId from another source is another event');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-a', pg_temp.ev('m3', 'nope', '{"platform":"web"}'),
                                                   pg_temp.ev('m3', 'page.viewed', '{"platform":"web"}', '{"path":"/"}')), 1),
          'accepted', 'after an invalid event, the same eventId can still be accepted in the batch');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-a', pg_temp.ev('m2', 'nope', '{"platform":"web"}')), 0),
          'invalid: unknown event type ''nope''', 'an eventId that was only ever invalid is not a duplicate');
SELECT is(pg_temp.outcome(pg_temp.ingest('src-a', pg_temp.ev('m3', 'nope', '{"platform":"web"}')), 0),
          'duplicate', 'a stored eventId is a duplicate whatever the rest of the envelope says');

-- A malformed batch is refused whole.
SELECT throws_ok($$SELECT corebank.events_ingest('src-x', '[]')$$, 'CBV00',
                 'events: List should have at least 1 item after validation, not 0', 'an empty batch is refused');
SELECT throws_ok($$SELECT corebank.events_ingest('src-x', (SELECT jsonb_agg(pg_temp.ev('b' || n, 'page.viewed', '{"platform":"web"}'))
                                                        FROM generate_series(1, 501) n))$$,
                 'CBV00', 'events: List should have at most 500 items after validation, not 501', 'a batch of 501 is refused');
SELECT lives_ok($$SELECT corebank.events_ingest('src-x', (SELECT jsonb_agg(pg_temp.ev('b' || n, 'page.viewed', '{"platform":"web"}', '{"path":"/"}'))
                                                       FROM generate_series(1, 500) n))$$, 'a batch of 500 is accepted');
SELECT throws_ok($$SELECT corebank.events_ingest('src-x', '[{"type":"page.viewed","occurredAt":"2026-11-21T10:00:00Z","identity":{"platform":"web"}}]')$$,
                 'CBV00', 'events[0].eventId: Field required', 'an envelope without eventId is refused');
SELECT throws_ok($$SELECT corebank.events_ingest('src-x', '[{"eventId":"x","type":"page.viewed","occurredAt":"2026-02-30T10:00:00Z","identity":{"platform":"web"}}]')$$,
                 'CBV00', 'events[0].occurredAt: Input should be an ISO 8601 UTC datetime ending in Z, e.g. 2026-11-21T10:00:00Z',
                 'a day that does not exist is refused');
SELECT throws_ok($$SELECT corebank.events_ingest('src-x', '[{"eventId":"x","type":"page.viewed","occurredAt":"2026-11-21T10:00:00+02:00","identity":{"platform":"web"}}]')$$,
                 'CBV00', NULL, 'an offset other than Z is refused');
SELECT throws_ok($$SELECT corebank.events_ingest('src-x', '[{"eventId":"x","type":"page.viewed","occurredAt":"2026-11-21T10:00:00Z","identity":{"platform":"web"},"source":"evil"}]')$$,
                 'CBV00', 'events[0].source: Extra inputs are not permitted', 'the envelope cannot name a source');
SELECT throws_ok($$SELECT corebank.events_ingest('bad source!', '[{"eventId":"x","type":"page.viewed","occurredAt":"2026-11-21T10:00:00Z","identity":{"platform":"web"}}]')$$,
                 'CBV00', 'source: must be 1 to 100 of A-Z a-z 0-9 . _ : -', 'the source is a callerId');
SELECT is(pg_temp.stored('src-x'), 500::bigint, 'refused batches stored nothing');

-- Savepoints: a data error rolls back that event only; any other error the call.
ALTER TABLE corebank.events ADD CONSTRAINT pgtap_poison CHECK (event_id <> 'poison');
INSERT INTO r VALUES ('poisoned', pg_temp.ingest('src-sp',
    pg_temp.ev('ok1', 'page.viewed', '{"platform":"web","userId":"sp-u1"}', '{"path":"/"}'),
    pg_temp.ev('poison', 'page.viewed', '{"platform":"web","userId":"sp-u2"}', '{"path":"/"}'),
    pg_temp.ev('ok2', 'page.viewed', '{"platform":"web","userId":"sp-u3"}', '{"path":"/"}')));
SELECT is(pg_temp.res('poisoned') - 'results', '{"accepted": 2, "duplicates": 0, "invalid": 1}'::jsonb,
          'one event refused by the database does not fail the batch');
SELECT matches(pg_temp.outcome(pg_temp.res('poisoned'), 1), '^invalid: event could not be stored: .*pgtap_poison',
               'that event is invalid, with the database''s reason');
SELECT ok(pg_temp.owner('user:web', 'sp-u1') IS NOT NULL AND pg_temp.owner('user:web', 'sp-u2') IS NULL
          AND pg_temp.owner('user:web', 'sp-u3') IS NOT NULL,
          'the refused event''s identity changes were rolled back with it, the others kept');
ALTER TABLE corebank.events DROP CONSTRAINT pgtap_poison;
CREATE FUNCTION pg_temp.boom() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
    IF NEW.event_id = 'boom' THEN RAISE EXCEPTION 'boom' USING ERRCODE = 'P0001'; END IF;
    RETURN NEW;
END $f$;
CREATE TRIGGER pgtap_boom BEFORE INSERT ON corebank.events FOR EACH ROW EXECUTE FUNCTION pg_temp.boom();
SELECT throws_ok($$SELECT pg_temp.ingest('src-sp2', pg_temp.ev('fine', 'page.viewed', '{"platform":"web"}', '{"path":"/"}'),
                                                    pg_temp.ev('boom', 'page.viewed', '{"platform":"web"}', '{"path":"/"}'))$$,
                 'P0001', 'boom', 'an error that is not about the event''s data fails the whole call');
SELECT is(pg_temp.stored('src-sp2'), 0::bigint, 'and nothing of that batch is stored');
DROP TRIGGER pgtap_boom ON corebank.events;

SELECT * FROM finish();
ROLLBACK;
