-- Insights of one customer (docs/events.md, "Insights"), with every
-- customer merged into it: first and last seen (over all time), and for the
-- UTC days from_day to to_day (both included, at most 92) the event counts
-- by type and the money totals by field and currency (exact, as the traits
-- add them), in total and per day. Each member's events of the window are
-- one range of the index events_by_customer (customer_id, occurred_at, id),
-- and first and last seen its two ends: the cost follows the customer's
-- events in the window, never the stream's history. NULL for an unknown
-- customer.
CREATE FUNCTION corebank.events_customer_insights(customer_id text, from_day date, to_day date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    days_max CONSTANT int := 92;
    customer uuid;
    members uuid[];
    window_start timestamptz;
    window_end timestamptz;
    first_seen timestamptz;
    last_seen timestamptz;
    result jsonb;
BEGIN
    IF from_day IS NULL OR to_day IS NULL OR to_day < from_day THEN
        PERFORM corebank_internal.fail('CBV00', 'from, to: both are required and to must not be before from');
    END IF;
    IF to_day - from_day + 1 > days_max THEN
        PERFORM corebank_internal.fail('CBV00', format('from, to: at most %s days', days_max));
    END IF;
    customer := corebank_internal.events_canonical(customer_id);
    IF customer IS NULL THEN
        RETURN NULL;
    END IF;
    members := corebank_internal.events_members(customer);
    window_start := from_day::timestamp AT TIME ZONE 'UTC';
    window_end := (to_day + 1)::timestamp AT TIME ZONE 'UTC';

    SELECT min(f.at), max(l.at) INTO first_seen, last_seen
    FROM unnest(members) AS m(id)
    CROSS JOIN LATERAL (SELECT e.occurred_at AS at FROM corebank.events e WHERE e.customer_id = m.id
                        ORDER BY e.occurred_at LIMIT 1) AS f
    CROSS JOIN LATERAL (SELECT e.occurred_at AS at FROM corebank.events e WHERE e.customer_id = m.id
                        ORDER BY e.occurred_at DESC LIMIT 1) AS l;

    WITH ev AS (
        SELECT (e.occurred_at AT TIME ZONE 'UTC')::date AS day, e.type, e.payload
        FROM corebank.events e
        WHERE e.customer_id = ANY (members) AND e.occurred_at >= window_start AND e.occurred_at < window_end
    ), amounts AS (
        SELECT ev.day, f.type || '.' || f.field AS field, ev.payload ->> 'currency' AS currency,
               (ev.payload ->> f.field)::numeric AS amount
        FROM ev JOIN corebank_internal.events_money_fields() f ON f.type = ev.type
        WHERE ev.payload ->> 'currency' IS NOT NULL AND ev.payload ->> f.field IS NOT NULL
    ), by_day_type AS (
        SELECT ev.day, ev.type, count(*) AS n FROM ev GROUP BY 1, 2
    ), by_day_field AS (
        SELECT a.day, a.field, a.currency, sum(a.amount) AS total FROM amounts a GROUP BY 1, 2, 3
    ), day_counts AS (
        SELECT d.day, sum(d.n)::bigint AS n, jsonb_object_agg(d.type, d.n ORDER BY d.type) AS by_type
        FROM by_day_type d GROUP BY d.day
    ), day_money AS (
        SELECT x.day, jsonb_object_agg(x.field, x.totals ORDER BY x.field) AS money
        FROM (SELECT f.day, f.field, jsonb_object_agg(f.currency, f.total::text ORDER BY f.currency) AS totals
              FROM by_day_field f GROUP BY f.day, f.field) AS x
        GROUP BY x.day
    ), type_counts AS (
        SELECT d.type, sum(d.n)::bigint AS n FROM by_day_type d GROUP BY d.type
    ), field_totals AS (
        SELECT f.field, f.currency, sum(f.total) AS total FROM by_day_field f GROUP BY 1, 2
    )
    SELECT jsonb_build_object(
               'eventCount', (SELECT coalesce(sum(t.n), 0)::bigint FROM type_counts t),
               'countsByType', (SELECT coalesce(jsonb_object_agg(t.type, t.n ORDER BY t.type), '{}'::jsonb)
                                FROM type_counts t),
               'money', (SELECT coalesce(jsonb_object_agg(k.field, k.totals ORDER BY k.field), '{}'::jsonb)
                         FROM (SELECT t.field, jsonb_object_agg(t.currency, t.total::text ORDER BY t.currency) AS totals
                               FROM field_totals t GROUP BY t.field) AS k),
               -- totalPaid as the traits define it.
               'totalPaid', (SELECT coalesce(jsonb_object_agg(p.currency, p.total::text ORDER BY p.currency), '{}'::jsonb)
                             FROM (SELECT t.currency, sum(t.total) AS total FROM field_totals t
                                   WHERE t.field IN ('order.paid.total', 'payment.completed.amount',
                                                     'billpay.completed.total')
                                   GROUP BY t.currency) AS p),
               'days', (SELECT coalesce(jsonb_agg(jsonb_build_object('day', to_char(dc.day, 'YYYY-MM-DD'),
                                                                     'eventCount', dc.n, 'countsByType', dc.by_type,
                                                                     'money', coalesce(dm.money, '{}'::jsonb))
                                                  ORDER BY dc.day), '[]'::jsonb)
                        FROM day_counts dc LEFT JOIN day_money dm ON dm.day = dc.day))
    INTO result;

    RETURN jsonb_build_object('customerId', (SELECT c.public_id FROM corebank.customers_graph c WHERE c.id = customer),
                              'firstSeenAt', corebank_internal.events_iso(first_seen),
                              'lastSeenAt', corebank_internal.events_iso(last_seen),
                              'from', to_char(from_day, 'YYYY-MM-DD'), 'to', to_char(to_day, 'YYYY-MM-DD'))
           || result;
END
$fn$;
