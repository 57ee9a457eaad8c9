-- Parity of one source (docs/events.md, "Parity"): per window of occurredAt
-- (UTC hours or days) and type, the count of stored events and the checksum
-- of their eventIds (sum mod 2^64 of events_id_hash), plus the totals of the
-- whole range. Read from event_parity_hourly only: the cost follows the
-- range asked for (at most 168 hours or 31 days), never the history.
-- from_at and to_at must fall on the granularity's boundaries; to_at is
-- exclusive. type, when given, keeps that type only.
CREATE FUNCTION corebank.events_parity(source text, from_at timestamptz, to_at timestamptz, granularity text,
                                       type text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    two_to_64 CONSTANT numeric := 18446744073709551616;
    hours_max CONSTANT int := 168;
    days_max CONSTANT int := 31;
    windows jsonb;
    total_count bigint;
    total_checksum numeric;
BEGIN
    IF source IS NULL OR source !~ '^[A-Za-z0-9._:-]{1,100}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'source: must be 1 to 100 of A-Z a-z 0-9 . _ : -');
    END IF;
    IF granularity IS NULL OR granularity NOT IN ('hour', 'day') THEN
        PERFORM corebank_internal.fail('CBV00', 'granularity: must be hour or day');
    END IF;
    IF from_at IS NULL OR to_at IS NULL OR to_at <= from_at THEN
        PERFORM corebank_internal.fail('CBV00', 'from, to: both are required and to must be after from');
    END IF;
    IF date_trunc(granularity, from_at, 'UTC') <> from_at OR date_trunc(granularity, to_at, 'UTC') <> to_at THEN
        PERFORM corebank_internal.fail('CBV00', format('from, to: must start a UTC %s', granularity));
    END IF;
    IF (granularity = 'hour' AND to_at - from_at > make_interval(hours => hours_max))
       OR (granularity = 'day' AND to_at - from_at > make_interval(days => days_max)) THEN
        PERFORM corebank_internal.fail('CBV00', format('from, to: at most %s hours or %s days apart', hours_max,
                                                       days_max));
    END IF;
    IF type IS NOT NULL AND (length(type) NOT BETWEEN 1 AND 60) THEN
        PERFORM corebank_internal.fail('CBV00', 'type: must be 1 to 60 characters');
    END IF;

    WITH rows AS (
        SELECT date_trunc(granularity, p.window_start, 'UTC') AS window_start, p.type, sum(p.event_count) AS n,
               sum(p.checksum) % two_to_64 AS checksum
        FROM corebank.event_parity_hourly p
        WHERE p.source = source AND p.window_start >= from_at AND p.window_start < to_at
          AND (type IS NULL OR p.type = type)
        GROUP BY 1, 2
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object('windowStart', corebank_internal.events_iso(r.window_start),
                                                 'type', r.type, 'count', r.n,
                                                 'checksum', corebank_internal.events_checksum_hex(r.checksum))
                              ORDER BY r.window_start, r.type), '[]'::jsonb),
           coalesce(sum(r.n), 0)::bigint, coalesce(sum(r.checksum) % two_to_64, 0)
    INTO windows, total_count, total_checksum
    FROM rows r;

    RETURN jsonb_build_object('source', source, 'granularity', granularity,
                              'from', corebank_internal.events_iso(from_at), 'to', corebank_internal.events_iso(to_at),
                              'type', type, 'count', total_count,
                              'checksum', corebank_internal.events_checksum_hex(total_checksum),
                              'windows', windows);
END
$fn$;
