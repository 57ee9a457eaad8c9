-- ISO 8601 UTC with a trailing Z; microseconds only when not zero.
CREATE FUNCTION corebank_internal.events_iso(at timestamptz) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT to_char(events_iso.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')
           || CASE WHEN extract(microseconds FROM events_iso.at)::bigint % 1000000 = 0 THEN ''
                   ELSE to_char(events_iso.at AT TIME ZONE 'UTC', '.US') END
           || 'Z'
$fn$;
