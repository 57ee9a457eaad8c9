-- Job interest's reason not to run for run_date: a day it would accrue (from
-- the earliest account's processed_through + 1) lies in a CLOSED period. The
-- run catches up every unprocessed day, and cannot post into a closed one;
-- so the job is SKIPPED, with this report, date after date, until the period
-- is reopened, and then the next date's run accrues every day it missed.
-- NULL: nothing stops it.
CREATE FUNCTION corebank_internal.eod_interest_skip(run_date date) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT format('interest was not run for %s: the days from %s to accrue include the closed period%s %s; '
                  'they are accrued when it is reopened', run_date, w.first_day,
                  CASE WHEN count(*) > 1 THEN 's' ELSE '' END, string_agg(p.period, ', ' ORDER BY p.period))
    FROM (SELECT greatest(min(d.processed_through) + 1, run_date - 365) AS first_day
          FROM corebank.deposit_accounts d JOIN corebank.ledger_accounts a ON a.id = d.id
          WHERE a.status <> 'CLOSED' AND d.processed_through < run_date) w
    JOIN corebank.accounting_periods p
      ON p.status = 'CLOSED' AND p.period BETWEEN to_char(w.first_day, 'YYYY-MM') AND to_char(run_date, 'YYYY-MM')
    GROUP BY w.first_day
$fn$;
