-- ISO 8601 in UTC with microseconds, whatever the session's TimeZone.
CREATE FUNCTION corebank_internal.iso_utc(at timestamptz) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$fn$;
