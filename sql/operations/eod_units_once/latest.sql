-- The units of a job that is one piece of work for the whole bank.
CREATE FUNCTION corebank_internal.eod_units_once(run_date date) RETURNS SETOF text
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT 'all'::text
$fn$;
