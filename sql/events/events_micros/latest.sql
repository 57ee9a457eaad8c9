-- Microseconds since the epoch (the feed cursor) and back, exactly.
CREATE FUNCTION corebank_internal.events_micros(at timestamptz) RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT (extract(epoch FROM events_micros.at) * 1000000)::bigint
$fn$;
