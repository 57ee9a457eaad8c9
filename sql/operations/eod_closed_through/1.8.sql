-- The last business date whose jobs have all finished, with every date
-- before it: the day before the earliest unfinished job, else the newest
-- date opened, else the day before the runner's first date.
CREATE FUNCTION corebank_internal.eod_closed_through() RETURNS date
    LANGUAGE sql STABLE
    AS $fn$
    SELECT coalesce((SELECT min(j.business_date) - 1 FROM corebank.eod_jobs j WHERE j.state IN ('PENDING', 'RUNNING')),
                    (SELECT max(j.business_date) FROM corebank.eod_jobs j),
                    (SELECT r.first_date - 1 FROM corebank.eod_runner r))
$fn$;
