-- Insights of one customer (docs/events.md, "Insights"), with every
-- customer merged into it: first and last seen (over all time), and for the
-- UTC days from_day to to_day (both included, at most 92) the event counts
-- by type and the money totals by field and currency, in total and per day.
-- Read from the daily rollups only: the cost follows the days asked for and
-- the customer's members, never the event history. NULL for an unknown
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
    first_seen timestamptz;
    last_seen timestamptz;
    counts jsonb;
    money jsonb;
    total_paid jsonb;
    days jsonb;
    event_count bigint;
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

    -- Each member's first and last day by index, then that day's rows.
    SELECT min(f.first_at), max(l.last_at) INTO first_seen, last_seen
    FROM unnest(members) AS m(id)
    CROSS JOIN LATERAL (SELECT min(d.first_at) AS first_at FROM corebank.event_customer_daily d
                        WHERE d.customer_id = m.id
                          AND d.day = (SELECT x.day FROM corebank.event_customer_daily x
                                       WHERE x.customer_id = m.id ORDER BY x.day LIMIT 1)) AS f
    CROSS JOIN LATERAL (SELECT max(d.last_at) AS last_at FROM corebank.event_customer_daily d
                        WHERE d.customer_id = m.id
                          AND d.day = (SELECT x.day FROM corebank.event_customer_daily x
                                       WHERE x.customer_id = m.id ORDER BY x.day DESC LIMIT 1)) AS l;

    WITH c AS (
        SELECT d.day, d.type, sum(d.event_count)::bigint AS n
        FROM corebank.event_customer_daily d
        WHERE d.customer_id = ANY (members) AND d.day BETWEEN from_day AND to_day
        GROUP BY 1, 2
    ), k AS (
        SELECT m.day, m.field, m.currency, sum(m.total) AS total
        FROM corebank.event_customer_money_daily m
        WHERE m.customer_id = ANY (members) AND m.day BETWEEN from_day AND to_day
        GROUP BY 1, 2, 3
    ), day_counts AS (
        SELECT c.day, sum(c.n)::bigint AS n, jsonb_object_agg(c.type, c.n ORDER BY c.type) AS by_type
        FROM c GROUP BY c.day
    ), day_fields AS (
        SELECT k.day, k.field, jsonb_object_agg(k.currency, k.total::text ORDER BY k.currency) AS totals
        FROM k GROUP BY k.day, k.field
    ), day_money AS (
        SELECT f.day, jsonb_object_agg(f.field, f.totals ORDER BY f.field) AS money FROM day_fields f GROUP BY f.day
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object('day', to_char(dc.day, 'YYYY-MM-DD'), 'eventCount', dc.n,
                                                 'countsByType', dc.by_type,
                                                 'money', coalesce(dm.money, '{}'::jsonb))
                              ORDER BY dc.day), '[]'::jsonb)
    INTO days
    FROM day_counts dc LEFT JOIN day_money dm ON dm.day = dc.day;

    SELECT coalesce(sum(t.n), 0)::bigint, coalesce(jsonb_object_agg(t.type, t.n ORDER BY t.type), '{}'::jsonb)
    INTO event_count, counts
    FROM (SELECT d.type, sum(d.event_count)::bigint AS n FROM corebank.event_customer_daily d
          WHERE d.customer_id = ANY (members) AND d.day BETWEEN from_day AND to_day GROUP BY 1) AS t;

    WITH per_field AS (
        SELECT m.field, m.currency, sum(m.total) AS total FROM corebank.event_customer_money_daily m
        WHERE m.customer_id = ANY (members) AND m.day BETWEEN from_day AND to_day
        GROUP BY 1, 2
    ), per_key AS (
        SELECT p.field, jsonb_object_agg(p.currency, p.total::text ORDER BY p.currency) AS totals
        FROM per_field p GROUP BY p.field
    )
    SELECT coalesce(jsonb_object_agg(k.field, k.totals ORDER BY k.field), '{}'::jsonb) INTO money FROM per_key k;

    -- totalPaid as the traits define it (order.paid.total, payment.completed.amount, billpay.completed.total).
    SELECT coalesce(jsonb_object_agg(p.currency, p.total::text ORDER BY p.currency), '{}'::jsonb) INTO total_paid
    FROM (SELECT m.currency, sum(m.total) AS total FROM corebank.event_customer_money_daily m
          WHERE m.customer_id = ANY (members) AND m.day BETWEEN from_day AND to_day
            AND m.field IN ('order.paid.total', 'payment.completed.amount', 'billpay.completed.total')
          GROUP BY 1) AS p;

    RETURN jsonb_build_object('customerId', (SELECT c.public_id FROM corebank.customers_graph c WHERE c.id = customer),
                              'firstSeenAt', corebank_internal.events_iso(first_seen),
                              'lastSeenAt', corebank_internal.events_iso(last_seen),
                              'from', to_char(from_day, 'YYYY-MM-DD'), 'to', to_char(to_day, 'YYYY-MM-DD'),
                              'eventCount', event_count, 'countsByType', counts, 'money', money,
                              'totalPaid', total_paid, 'days', days);
END
$fn$;
