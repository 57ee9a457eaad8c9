-- ISO 8601 UTC with milliseconds and a trailing Z, as every response uses.
CREATE FUNCTION corebank_internal.verify_iso_utc(at timestamptz) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$fn$;
