-- One page of events in (occurred_at, id) order after the cursor, for the
-- feed (customer NULL) or one surviving customer. page_size + 1 rows are
-- read to know whether a next page exists.
CREATE FUNCTION corebank_internal.events_page(customer uuid, after_micros bigint, after_id bigint, page_size int)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    after_at timestamptz := corebank_internal.events_from_micros(events_page.after_micros);
    after_row bigint := coalesce(events_page.after_id, 0);
    rows_max int := events_page.page_size + 1;
    page jsonb;
    last_micros bigint;
    last_id bigint;
    fetched int;
BEGIN
    WITH candidates AS (
        SELECT e.* FROM corebank.events e
        WHERE events_page.customer IS NULL AND (e.occurred_at, e.id) > (after_at, after_row)
        ORDER BY e.occurred_at, e.id
        LIMIT rows_max
    ), member_candidates AS (
        SELECT x.* FROM unnest(corebank_internal.events_members(events_page.customer)) AS m(id)
        CROSS JOIN LATERAL (
            SELECT e.* FROM corebank.events e
            WHERE e.customer_id = m.id AND (e.occurred_at, e.id) > (after_at, after_row)
            ORDER BY e.occurred_at, e.id
            LIMIT rows_max) x
        WHERE events_page.customer IS NOT NULL
    ), chosen AS (
        SELECT * FROM (SELECT * FROM candidates UNION ALL SELECT * FROM member_candidates) u
        ORDER BY u.occurred_at, u.id
        LIMIT rows_max
    ), numbered AS (
        SELECT c.*, row_number() OVER (ORDER BY c.occurred_at, c.id) AS position FROM chosen c
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'sequence', n.id, 'source', n.source, 'eventId', n.event_id, 'type', n.type,
               'schemaVersion', n.schema_version,
               'occurredAt', corebank_internal.events_iso(n.occurred_at),
               'receivedAt', corebank_internal.events_iso(n.received_at),
               'platform', n.platform,
               'customerId', (SELECT w.public_id FROM corebank.customers_graph c
                              JOIN corebank.customers_graph w ON w.id = coalesce(c.merged_into, c.id)
                              WHERE c.id = n.customer_id),
               'identity', n.identity, 'payload', n.payload)
               ORDER BY n.occurred_at, n.id) FILTER (WHERE n.position <= events_page.page_size), '[]'::jsonb),
           max(corebank_internal.events_micros(n.occurred_at)) FILTER (WHERE n.position = events_page.page_size),
           max(n.id) FILTER (WHERE n.position = events_page.page_size),
           count(*)
    INTO page, last_micros, last_id, fetched
    FROM numbered n;
    RETURN jsonb_build_object('items', page,
                              'nextCursor', CASE WHEN fetched > events_page.page_size
                                                 THEN corebank_internal.events_cursor(last_micros, last_id) END);
END
$fn$;
