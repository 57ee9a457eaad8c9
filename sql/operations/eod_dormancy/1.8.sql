-- Job dormancy: dormancy_mark, the work of POST /v1/dormancy/run, with the
-- date the job runs for as the accounts' dormant_since (a catch-up after
-- downtime stamps each date's own, not the day it caught up on). plpgsql:
-- it is created before dormancy_mark in the release script.
CREATE FUNCTION corebank_internal.eod_dormancy(run_date date, unit text, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
BEGIN
    RETURN corebank_internal.dormancy_mark(run_date, actor, run_date) - 'runDate';
END
$fn$;
