-- POST /v1/dormancy/run: ACTIVE accounts whose product has dormancy_days and
-- whose last customer-initiated posting (or opening) is that many days
-- before run_date become DORMANT, since the business date the operator runs
-- it on (dormancy_mark). 1.8: the loop moved to dormancy_mark, which the
-- end-of-day runner calls with the date it runs for.
CREATE OR REPLACE FUNCTION corebank.core_dormancy_run(run_date date, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.dormancy_mark(run_date, actor, corebank_internal.business_today());
END
$fn$;
