-- The rollups of one ingest batch (docs/events.md, "Parity" and "Insights"),
-- called once by events_ingest (C++) with the row ids of the events the batch
-- stored, in the batch's transaction: a duplicate or invalid event has no row
-- id here, so it never counts. Three set-based upserts, each in key order so
-- that two batches lock shared rollup rows in the same order (no deadlock
-- between them), in this backend's stripe (pid mod 16), so that concurrent
-- batches of one source or customer write different rows and do not wait
-- for each other's commit. A customer's rows go to the event's stored customer_id: a
-- merge earlier in the batch has already re-pointed it, and a customer merged
-- by a concurrent batch is still read through events_members.
CREATE FUNCTION corebank_internal.events_rollup_batch(row_ids bigint[]) RETURNS void
    LANGUAGE plpgsql
    AS $fn$
#variable_conflict use_variable
DECLARE
    two_to_64 CONSTANT numeric := 18446744073709551616;
    currency_length_max CONSTANT int := 64;
    stripes CONSTANT int := 16;
    my_stripe CONSTANT smallint := pg_backend_pid() % stripes;
BEGIN
    INSERT INTO corebank.event_parity_hourly AS p (source, window_start, type, event_count, checksum, stripe)
    SELECT e.source, date_trunc('hour', e.occurred_at, 'UTC'), e.type, count(*),
           sum(corebank_internal.events_id_hash(e.event_id)) % two_to_64, my_stripe
    FROM corebank.events e
    WHERE e.id = ANY (row_ids)
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
    ON CONFLICT (source, window_start, type, stripe) DO UPDATE
    SET event_count = p.event_count + excluded.event_count,
        checksum = (p.checksum + excluded.checksum) % two_to_64;

    INSERT INTO corebank.event_customer_daily AS d (customer_id, day, type, event_count, first_at, last_at, stripe)
    SELECT e.customer_id, (e.occurred_at AT TIME ZONE 'UTC')::date, e.type, count(*), min(e.occurred_at),
           max(e.occurred_at), my_stripe
    FROM corebank.events e
    WHERE e.id = ANY (row_ids) AND e.customer_id IS NOT NULL
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
    ON CONFLICT (customer_id, day, type, stripe) DO UPDATE
    SET event_count = d.event_count + excluded.event_count, first_at = least(d.first_at, excluded.first_at),
        last_at = greatest(d.last_at, excluded.last_at);

    -- Money fields are decimal strings ingest has checked; a currency longer
    -- than 64 characters is not totalled (docs/events.md, "Insights").
    INSERT INTO corebank.event_customer_money_daily AS m (customer_id, day, field, currency, total, stripe)
    SELECT e.customer_id, (e.occurred_at AT TIME ZONE 'UTC')::date, f.type || '.' || f.field,
           e.payload ->> 'currency', sum((e.payload ->> f.field)::numeric), my_stripe
    FROM corebank.events e
    JOIN corebank_internal.events_money_fields() f ON f.type = e.type
    WHERE e.id = ANY (row_ids) AND e.customer_id IS NOT NULL AND e.payload ->> f.field IS NOT NULL
      AND length(e.payload ->> 'currency') BETWEEN 1 AND currency_length_max
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (customer_id, day, field, currency, stripe) DO UPDATE
    SET total = m.total + excluded.total;
END
$fn$;
