-- events_identity.sql: identity resolution and merges (docs/events.md,
-- "Identity resolution" and "Merges").
--
-- Goal: identifiers are normalised (phone to E.164 with the home country,
-- email trimmed and lower case, nationalId, zbIdSubject); the strongest known
-- identifier names the customer (userId per platform, zbIdSubject, phone,
-- email, nationalId, sessionId); unknown identifiers attach to it; an
-- identifier owned by someone else is never moved, except a session, which
-- follows the customer a stronger identifier named; identity.claimed merges
-- the owner of the claimed identifier into the event's customer, keeping
-- every event and identifier, merging consents (newest wins) and loyalty
-- members, recording the merge, and flattening earlier merges.
-- Method: ingest events, then read the graph tables.
BEGIN;
SELECT plan(40);
\ir helpers/events.sql

-- Normalisation.
SELECT pg_temp.ingest('id', pg_temp.ev('n1', 'identity.registered',
    '{"platform":"web","userId":" norm-u1 ","phone":"0771 234-567","email":"  Norm.User@Example.COM ","nationalId":"63-123456 a 12","zbIdSubject":"6F9619FF-8B86-D011-B42D-00C04FC964FF","sessionId":"norm-s1","displayName":"Norma"}'));
SELECT is((SELECT array_agg(kind || '=' || value ORDER BY kind) FROM corebank.customer_identifiers
           WHERE customer_id = pg_temp.owner('user:web', 'norm-u1')),
          ARRAY['email=norm.user@example.com', 'national_id=63123456A12', 'phone=+263771234567', 'session=norm-s1',
                'user:web=norm-u1', 'zbid=6f9619ff-8b86-d011-b42d-00c04fc964ff'],
          'every identifier of the block is stored normalised on one customer');
SELECT is((SELECT (display_name, is_guest)::text FROM corebank.customers_graph WHERE id = pg_temp.owner('user:web', 'norm-u1')),
          '(Norma,f)', 'the new customer has the block''s displayName and is not a guest');
SELECT matches(pg_temp.public_id('user:web', 'norm-u1'), '^cus_[a-z2-7]{20}$', 'the public id is cus_ + 20 base32 characters');

-- Phone spellings resolve to one customer.
SELECT pg_temp.ingest('id',
    pg_temp.ev('p1', 'page.viewed', '{"platform":"ios","phone":"+263 77 123 4567"}', '{"path":"/"}'),
    pg_temp.ev('p2', 'page.viewed', '{"platform":"ios","phone":"00263771234567"}', '{"path":"/"}'),
    pg_temp.ev('p3', 'page.viewed', '{"platform":"ios","phone":"263771234567"}', '{"path":"/"}'),
    pg_temp.ev('p4', 'page.viewed', '{"platform":"ios","phone":"+263 (0)77 123 4567"}', '{"path":"/"}'));
SELECT is((SELECT count(DISTINCT customer_id) FROM corebank.events WHERE source = 'id' AND event_id IN ('p1', 'p2', 'p3', 'p4')),
          1::bigint, 'four spellings of one phone number name one customer');
SELECT is((SELECT customer_id FROM corebank.events WHERE source = 'id' AND event_id = 'p1'), pg_temp.owner('user:web', 'norm-u1'),
          'and it is the customer that already had the number');
SELECT pg_temp.ingest('id', pg_temp.ev('p5', 'page.viewed', '{"platform":"ios","phone":"12345","email":"p5@example.com"}', '{"path":"/"}'));
SELECT is((SELECT count(*) FROM corebank.customer_identifiers WHERE customer_id = pg_temp.owner('email', 'p5@example.com')),
          1::bigint, 'a phone that is no phone number is not an identifier (the event still resolves by email)');
SELECT lives_ok($$SELECT corebank.events_configure('{web,android,ios,ussd,whatsapp,pos}', '{}', '27')$$,
                'the home country is configuration');
SELECT pg_temp.ingest('id', pg_temp.ev('p6', 'page.viewed', '{"platform":"ios","phone":"082 555 0101"}', '{"path":"/"}'));
SELECT isnt(pg_temp.owner('phone', '+27825550101'), NULL::uuid, 'a local number gains the configured country code');
SELECT corebank.events_configure('{web,android,ios,ussd,whatsapp,pos}', '{}', '263');

-- Priority, attach, no implicit move.
SELECT pg_temp.ingest('id',
    pg_temp.ev('a1', 'identity.registered', '{"platform":"web","userId":"alice","email":"alice@example.com"}'),
    pg_temp.ev('b1', 'identity.registered', '{"platform":"web","userId":"bob","email":"bob@example.com"}'),
    pg_temp.ev('a2', 'page.viewed', '{"platform":"web","userId":"alice","email":"bob@example.com","phone":"0772000001"}', '{"path":"/"}'));
SELECT is((SELECT customer_id FROM corebank.events WHERE source = 'id' AND event_id = 'a2'), pg_temp.owner('user:web', 'alice'),
          'userId outranks email: the event is alice''s');
SELECT is(pg_temp.owner('email', 'bob@example.com'), pg_temp.owner('user:web', 'bob'),
          'bob''s email stays bob''s: an owned identifier is never moved implicitly');
SELECT is(pg_temp.owner('phone', '+263772000001'), pg_temp.owner('user:web', 'alice'),
          'an unknown identifier attaches to the event''s customer');
SELECT pg_temp.ingest('id', pg_temp.ev('a3', 'page.viewed', '{"platform":"android","userId":"alice-droid","phone":"+263772000001"}', '{"path":"/"}'));
SELECT is(pg_temp.owner('user:android', 'alice-droid'), pg_temp.owner('user:web', 'alice'),
          'userId is per platform: a new platform''s userId attaches through the phone');

-- zbIdSubject links channels.
SELECT pg_temp.ingest('id',
    pg_temp.ev('z1', 'identity.registered', '{"platform":"web","userId":"zed-web","zbIdSubject":"7c9e6679-7425-40de-944b-e07fc1f90ae7"}'),
    pg_temp.ev('z2', 'identity.registered', '{"platform":"whatsapp","userId":"zed-wa","zbIdSubject":"7C9E6679-7425-40DE-944B-E07FC1F90AE7"}'));
SELECT is(pg_temp.owner('user:whatsapp', 'zed-wa'), pg_temp.owner('user:web', 'zed-web'),
          'the same zbIdSubject (any case) names the same customer across platforms');

-- Guests and sessions.
SELECT pg_temp.ingest('id', pg_temp.ev('g1', 'session.started', '{"platform":"web","sessionId":"guest-s1"}', '{"sessionId":"guest-s1"}'));
SELECT is((SELECT is_guest FROM corebank.customers_graph WHERE id = pg_temp.owner('session', 'guest-s1')), true,
          'an anonymous session makes a guest');
CREATE TEMP TABLE guest AS SELECT pg_temp.owner('session', 'guest-s1') AS id;
SELECT pg_temp.ingest('id', pg_temp.ev('g2', 'page.viewed', '{"platform":"web","userId":"alice","sessionId":"guest-s1"}', '{"path":"/"}'));
SELECT is(pg_temp.owner('session', 'guest-s1'), pg_temp.owner('user:web', 'alice'),
          'a guest session follows the customer a stronger identifier names (signed in)');
SELECT is((SELECT count(*) FROM corebank.events WHERE customer_id = (SELECT id FROM guest)), 1::bigint,
          'the guest''s earlier events stay the guest''s (no implicit merge)');
SELECT pg_temp.ingest('id', pg_temp.ev('g3', 'session.started', '{"platform":"web","sessionId":"guest-s2"}', '{"sessionId":"guest-s2"}'),
                            pg_temp.ev('g4', 'identity.registered', '{"platform":"web","userId":"newbie","sessionId":"guest-s2","displayName":"Newbie"}'));
SELECT is(pg_temp.owner('user:web', 'newbie'), pg_temp.owner('session', 'guest-s2'),
          'a first sign-in from a guest session turns that guest into the customer');
SELECT is((SELECT (is_guest, display_name)::text FROM corebank.customers_graph WHERE id = pg_temp.owner('user:web', 'newbie')),
          '(f,Newbie)', 'who signs in stops being a guest and gets the name');
SELECT pg_temp.ingest('id', pg_temp.ev('g5', 'order.paid', '{"platform":"pos","email":"walkin@example.com","isGuest":true}',
                                       '{"orderId":"o","subtotal":"1","total":"1","currency":"USD"}'));
SELECT is((SELECT is_guest FROM corebank.customers_graph WHERE id = pg_temp.owner('email', 'walkin@example.com')), true,
          'isGuest true with only an email makes a guest');
SELECT pg_temp.ingest('id', pg_temp.ev('g6', 'identity.updated', '{"platform":"pos","email":"walkin@example.com","isGuest":false,"displayName":"Walk In"}',
                                       '{"changed":["displayName"]}'));
SELECT is((SELECT (is_guest, display_name)::text FROM corebank.customers_graph WHERE id = pg_temp.owner('email', 'walkin@example.com')),
          '(f,"Walk In")', 'isGuest false and a new displayName update the customer');

-- Merge through identity.claimed.
SELECT pg_temp.ingest('id',
    pg_temp.ev('ma1', 'identity.registered', '{"platform":"web","userId":"m-ann","email":"ann@example.com","displayName":"Ann"}', '{}', '2026-01-01T00:00:00Z'),
    pg_temp.ev('ma2', 'consent.updated', '{"platform":"web","userId":"m-ann"}', '{"purpose":"marketing","status":"granted"}', '2026-01-02T00:00:00Z'),
    pg_temp.ev('mb1', 'identity.registered', '{"platform":"ios","userId":"m-ben","phone":"0773000001"}', '{}', '2026-01-01T00:00:00Z'),
    pg_temp.ev('mb2', 'consent.updated', '{"platform":"ios","userId":"m-ben"}', '{"purpose":"marketing","status":"revoked"}', '2026-01-01T12:00:00Z'),
    pg_temp.ev('mb3', 'consent.updated', '{"platform":"ios","userId":"m-ben"}', '{"purpose":"sms","status":"granted"}', '2026-01-03T00:00:00Z'));
SELECT corebank.events_loyalty_member_map('LOY-ANN', pg_temp.public_id('user:web', 'm-ann'));
CREATE TEMP TABLE pair AS SELECT pg_temp.owner('user:web', 'm-ann') AS ann, pg_temp.owner('user:ios', 'm-ben') AS ben,
                                 pg_temp.public_id('user:web', 'm-ann') AS ann_public;
SELECT isnt((SELECT ann FROM pair), (SELECT ben FROM pair), 'ann and ben start as two customers');
SELECT is(pg_temp.outcome(pg_temp.ingest('id', pg_temp.ev('mc1', 'identity.claimed', '{"platform":"ios","userId":"m-ben"}',
                                                        '{"claimedType":"email","claimedValue":" ANN@example.com"}', '2026-01-04T00:00:00Z')), 0),
          'accepted', 'ben claims ann''s email');
SELECT is((SELECT merged_into FROM corebank.customers_graph WHERE id = (SELECT ann FROM pair)), (SELECT ben FROM pair),
          'the owner of the claimed identifier is merged into the claiming event''s customer');
SELECT is((SELECT (from_customer, into_customer, reason, claimed_kind, claimed_value)::text FROM corebank.customer_merges
           WHERE from_customer = (SELECT ann FROM pair)),
          ((SELECT ann FROM pair), (SELECT ben FROM pair), 'identity.claimed', 'email', 'ann@example.com')::text,
          'the merge is recorded with its reason and the claimed identifier');
SELECT is((SELECT event_id FROM corebank.events WHERE id = (SELECT event_row_id FROM corebank.customer_merges
                                                            WHERE from_customer = (SELECT ann FROM pair))),
          'mc1', 'the merge record names the claiming event');
SELECT is(pg_temp.owner('user:web', 'm-ann'), (SELECT ben FROM pair), 'ann''s identifiers now name ben');
SELECT is((SELECT count(*) FROM corebank.customer_identifiers WHERE customer_id = (SELECT ann FROM pair)), 0::bigint,
          'no identifier is left on the merged customer');
SELECT is((SELECT array_agg(event_id ORDER BY event_id) FROM corebank.events WHERE customer_id = (SELECT ben FROM pair)),
          ARRAY['ma1', 'ma2', 'mb1', 'mb2', 'mb3', 'mc1'], 'every event of both is kept, now under ben');
SELECT is((SELECT array_agg(purpose || '=' || status ORDER BY purpose) FROM corebank.consents WHERE customer_id = (SELECT ben FROM pair)),
          ARRAY['marketing=granted', 'sms=granted'], 'consents merge: per purpose the newest occurredAt wins');
SELECT is((SELECT count(*) FROM corebank.consents WHERE customer_id = (SELECT ann FROM pair)), 0::bigint,
          'no consent is left on the merged customer');
SELECT is((SELECT customer_id FROM corebank.loyalty_members WHERE member_id = 'LOY-ANN'), (SELECT ben FROM pair),
          'loyalty members move to the survivor');
SELECT is((SELECT (display_name, is_guest)::text FROM corebank.customers_graph WHERE id = (SELECT ben FROM pair)),
          '(Ann,f)', 'the survivor keeps the best-known name');
SELECT is(corebank.events_customer_get((SELECT ann_public FROM pair)) ->> 'customerId', pg_temp.public_id('user:ios', 'm-ben'),
          'the merged customer''s public id reads as the survivor');
SELECT is(corebank.events_customer_get(pg_temp.public_id('user:ios', 'm-ben')) -> 'mergedCustomerIds',
          jsonb_build_array((SELECT ann_public FROM pair)), 'the survivor lists the customers merged into it');
SELECT pg_temp.ingest('id', pg_temp.ev('ma3', 'page.viewed', '{"platform":"web","userId":"m-ann"}', '{"path":"/"}'));
SELECT is((SELECT customer_id FROM corebank.events WHERE source = 'id' AND event_id = 'ma3'), (SELECT ben FROM pair),
          'later events of ann''s identifiers go to the survivor');

-- Claims that do not merge.
SELECT pg_temp.ingest('id', pg_temp.ev('mc2', 'identity.claimed', '{"platform":"ios","userId":"m-ben"}',
                                       '{"claimedType":"phone","claimedValue":"+263773000001"}'));
SELECT is((SELECT count(*) FROM corebank.customer_merges), 1::bigint, 'claiming one''s own identifier merges nothing');
SELECT pg_temp.ingest('id', pg_temp.ev('mc3', 'identity.claimed', '{"platform":"ios","userId":"m-ben"}',
                                       '{"claimedType":"nationalId","claimedValue":"99-000001 Z 01"}'));
SELECT is(pg_temp.owner('national_id', '99000001Z01'), (SELECT ben FROM pair), 'claiming an identifier nobody owns attaches it');

-- Merging the survivor again flattens the chain.
SELECT pg_temp.ingest('id', pg_temp.ev('d1', 'identity.claimed', '{"platform":"android","userId":"m-dan"}',
                                       '{"claimedType":"userId","claimedValue":"m-dan-web"}'),
                            pg_temp.ev('d2', 'identity.registered', '{"platform":"android","userId":"m-dan2"}'));
SELECT pg_temp.ingest('id', pg_temp.ev('d3', 'identity.claimed', '{"platform":"android","userId":"m-dan"}',
                                       '{"claimedType":"phone","claimedValue":"0773000001"}'));
SELECT is((SELECT merged_into FROM corebank.customers_graph WHERE id = (SELECT ann FROM pair)), pg_temp.owner('user:android', 'm-dan'),
          'a customer merged earlier points straight at the new survivor');
SELECT is((SELECT count(*) FROM corebank.customers_graph c JOIN corebank.customers_graph w ON w.id = c.merged_into
           WHERE w.merged_into IS NOT NULL), 0::bigint, 'no merged customer points at another merged customer');
SELECT is(pg_temp.owner('user:android', 'm-dan-web'), pg_temp.owner('user:android', 'm-dan'),
          'a userId claim is on the event''s platform');

SELECT * FROM finish();
ROLLBACK;
