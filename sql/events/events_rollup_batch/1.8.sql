-- The parity rollup of one ingest batch (docs/events.md, "Parity"), called
-- once by events_ingest (C++) with the row ids of the events the batch
-- stored, in the batch's transaction: a duplicate or invalid event has no row
-- id here, so it never counts. One set-based upsert in key order, so that two
-- batches lock shared rows in the same order (no deadlock between them), in
-- this backend's stripe (pid mod 16), so that concurrent batches of one
-- source and hour write different rows and do not wait for each other's
-- commit.
CREATE FUNCTION corebank_internal.events_rollup_batch(row_ids bigint[]) RETURNS void
    LANGUAGE plpgsql
    AS $fn$
#variable_conflict use_variable
DECLARE
    two_to_64 CONSTANT numeric := 18446744073709551616;
    stripes CONSTANT int := 16;
    my_stripe CONSTANT smallint := pg_backend_pid() % stripes;
BEGIN
    INSERT INTO corebank.event_parity_hourly AS p (source, window_start, type, event_count, checksum, stripe)
    SELECT e.source, date_trunc('hour', e.occurred_at, 'UTC'), e.type, count(*),
           (sum(corebank_internal.events_id_hash(e.event_id)) % two_to_64 + two_to_64) % two_to_64, my_stripe
    FROM corebank.events e
    WHERE e.id = ANY (row_ids)
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
    ON CONFLICT (source, window_start, type, stripe) DO UPDATE
    SET event_count = p.event_count + excluded.event_count,
        checksum = (p.checksum + excluded.checksum) % two_to_64;
END
$fn$;
