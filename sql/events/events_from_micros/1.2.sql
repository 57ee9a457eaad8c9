CREATE FUNCTION corebank_internal.events_from_micros(micros bigint) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT CASE WHEN events_from_micros.micros IS NULL THEN '-infinity'::timestamptz
                ELSE 'epoch'::timestamptz + events_from_micros.micros * interval '1 microsecond' END
$fn$;
