-- Whether run_date lies in a CLOSED accounting period: a job that posts
-- money is then reported (SKIPPED), not run.
CREATE FUNCTION corebank_internal.eod_period_closed(run_date date) RETURNS boolean
    LANGUAGE sql STABLE
    AS $fn$
    SELECT EXISTS (SELECT FROM corebank.accounting_periods p
                   WHERE p.period = to_char(run_date, 'YYYY-MM') AND p.status = 'CLOSED')
$fn$;
