-- Job interest: the day's accrual and, on a month's last day, the month's
-- interest posting and maintenance fees: core_interest_run, the function of
-- POST /v1/interest/run. Accrual and posting are one job because they share
-- each account's processed_through mark: as two transactions, a month could
-- stand accrued and not posted.
CREATE FUNCTION corebank_internal.eod_interest(run_date date, unit text, actor uuid) RETURNS jsonb
    LANGUAGE sql
    AS $fn$
    SELECT corebank.core_interest_run(run_date, actor) - 'runDate'
$fn$;
