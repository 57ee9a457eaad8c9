-- helpers/events.sql: pg_temp helpers shared by the event service tests
-- (included with \ir inside each test's transaction; gone at ROLLBACK).

-- One envelope; occurred defaults to a fixed instant.
CREATE FUNCTION pg_temp.ev(event_id text, type text, identity jsonb, payload jsonb DEFAULT '{}',
                           occurred text DEFAULT '2026-11-21T10:00:00Z') RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    AS $f$
    SELECT jsonb_build_object('eventId', event_id, 'type', type, 'occurredAt', occurred,
                              'identity', identity, 'payload', payload)
$f$;

-- Ingests the envelopes as one batch from `source`.
CREATE FUNCTION pg_temp.ingest(source text, VARIADIC envelopes jsonb[]) RETURNS jsonb
    LANGUAGE sql
    AS $f$ SELECT corebank.events_ingest(source, to_jsonb(envelopes)) $f$;

-- status (and error, if any) of result i (0-based) of an ingest result.
CREATE FUNCTION pg_temp.outcome(result jsonb, i int) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $f$
    SELECT (result -> 'results' -> i ->> 'status')
           || coalesce(': ' || (result -> 'results' -> i ->> 'error'), '')
$f$;

-- The surviving customer an identifier (stored kind and value) names.
CREATE FUNCTION pg_temp.owner(kind text, value text) RETURNS uuid
    LANGUAGE sql STABLE
    AS $f$
    SELECT coalesce(c.merged_into, c.id)
    FROM corebank.customer_identifiers i JOIN corebank.customers_graph c ON c.id = i.customer_id
    WHERE i.kind = owner.kind AND i.value = owner.value
$f$;

-- The public id of the customer an identifier names.
CREATE FUNCTION pg_temp.public_id(kind text, value text) RETURNS text
    LANGUAGE sql STABLE
    AS $f$ SELECT c.public_id FROM corebank.customers_graph c WHERE c.id = pg_temp.owner(kind, value) $f$;

-- How many stored events a source has.
CREATE FUNCTION pg_temp.stored(source text) RETURNS bigint
    LANGUAGE sql STABLE
    AS $f$ SELECT count(*) FROM corebank.events e WHERE e.source = stored.source $f$;
