-- The units of the standing-orders job: every ACTIVE order due on or before
-- run_date, one unit each, so that several runners pay them side by side.
CREATE FUNCTION corebank_internal.eod_units_standing_orders(run_date date) RETURNS SETOF text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT x.id::text FROM corebank.standing_orders x
    WHERE x.status = 'ACTIVE' AND x.next_run_date <= run_date
    ORDER BY x.next_run_date, x.reference
$fn$;
