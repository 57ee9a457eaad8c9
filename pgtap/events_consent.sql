-- events_consent.sql: consent.updated upserts consent per customer and
-- purpose, ordered by occurredAt (03-verification-and-events.md, "States and
-- transitions").
--
-- Goal: a newer decision replaces the stored one; an older occurredAt than
-- the stored decision is ignored (the event itself is still accepted and
-- stored); an equal occurredAt is not older, so the later-processed event
-- wins; order inside one batch does not matter; purposes are independent;
-- the read shows the newest decision over a customer and the customers
-- merged into it. Method: ingest, then read corebank.consents and
-- corebank.events_customer_consents.
BEGIN;
SELECT plan(14);
\ir helpers/events.sql

CREATE FUNCTION pg_temp.consent(event_id text, status text, occurred text, purpose text DEFAULT 'marketing',
                                identity jsonb DEFAULT '{"platform":"web","userId":"c-user"}') RETURNS text
    LANGUAGE sql
    AS $f$
    SELECT pg_temp.outcome(pg_temp.ingest('consent', pg_temp.ev(event_id, 'consent.updated', identity,
                                                               jsonb_build_object('purpose', purpose, 'status', status),
                                                               occurred)), 0)
$f$;
CREATE FUNCTION pg_temp.state(purpose text DEFAULT 'marketing') RETURNS text
    LANGUAGE sql STABLE
    AS $f$
    SELECT k.status || ' from ' || e.event_id
    FROM corebank.consents k JOIN corebank.events e ON e.id = k.event_row_id
    WHERE k.customer_id = pg_temp.owner('user:web', 'c-user') AND k.purpose = state.purpose
$f$;

SELECT is(pg_temp.consent('c1', 'granted', '2026-03-02T00:00:00Z'), 'accepted', 'a first decision is accepted');
SELECT is(pg_temp.state(), 'granted from c1', 'and stored');
SELECT is(pg_temp.consent('c2', 'revoked', '2026-03-01T00:00:00Z'), 'accepted', 'an older decision is accepted as an event');
SELECT is(pg_temp.state(), 'granted from c1', 'but ignored: the stored decision is newer');
SELECT ok(EXISTS (SELECT FROM corebank.events WHERE source = 'consent' AND event_id = 'c2'), 'the ignored event is still in the stream');
SELECT is(pg_temp.consent('c3', 'revoked', '2026-03-03T00:00:00Z'), 'accepted', 'a newer decision is accepted');
SELECT is(pg_temp.state(), 'revoked from c3', 'and replaces the stored one');
SELECT is(pg_temp.consent('c4', 'granted', '2026-03-03T00:00:00Z'), 'accepted', 'an equal occurredAt is accepted');
SELECT is(pg_temp.state(), 'granted from c4', 'and applies: it is not older (the later event wins a tie)');

SELECT pg_temp.ingest('consent',
    pg_temp.ev('c5', 'consent.updated', '{"platform":"web","userId":"c-user"}', '{"purpose":"marketing","status":"revoked"}', '2026-03-06T00:00:00Z'),
    pg_temp.ev('c6', 'consent.updated', '{"platform":"web","userId":"c-user"}', '{"purpose":"marketing","status":"granted"}', '2026-03-05T00:00:00Z'));
SELECT is(pg_temp.state(), 'revoked from c5', 'inside one batch the newest occurredAt wins, whatever the order');

SELECT is(pg_temp.consent('c7', 'granted', '2026-01-01T00:00:00Z', 'sms', '{"platform":"ios","email":"c-user-no-link@example.com"}'),
          'accepted', 'a consent of another customer');
SELECT is(pg_temp.consent('c8', 'granted', '2026-01-01T00:00:00Z', 'sms'), 'accepted', 'another purpose of the same customer');
SELECT is((SELECT jsonb_agg(x - 'updatedAt') FROM jsonb_array_elements(
               corebank.events_customer_consents(pg_temp.public_id('user:web', 'c-user')) -> 'consents') x),
          '[{"purpose": "marketing", "status": "revoked", "occurredAt": "2026-03-06T00:00:00Z", "source": "consent", "eventId": "c5"},
            {"purpose": "sms", "status": "granted", "occurredAt": "2026-01-01T00:00:00Z", "source": "consent", "eventId": "c8"}]'::jsonb,
          'the consent state lists each purpose with its deciding event');

-- A decision that raced with a merge and landed on the merged customer
-- still counts when it is the newest.
SELECT pg_temp.ingest('consent', pg_temp.ev('c9', 'identity.claimed', '{"platform":"web","userId":"c-user"}',
                                            '{"claimedType":"email","claimedValue":"c-user-no-link@example.com"}'));
INSERT INTO corebank.consents (customer_id, purpose, status, occurred_at, event_row_id)
SELECT m.from_customer, 'marketing', 'granted', '2026-04-01T00:00:00Z', m.event_row_id
FROM corebank.customer_merges m WHERE m.into_customer = pg_temp.owner('user:web', 'c-user');
SELECT is((SELECT x ->> 'status' FROM jsonb_array_elements(
               corebank.events_customer_consents(pg_temp.public_id('user:web', 'c-user')) -> 'consents') x
           WHERE x ->> 'purpose' = 'marketing'),
          'granted', 'the read takes the newest decision over the survivor and the customers merged into it');

SELECT * FROM finish();
ROLLBACK;
