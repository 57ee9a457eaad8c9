-- InterestRunResponse. Days from each account's processed_through + 1 up to
-- run_date (at most 366); one run at a time.
CREATE OR REPLACE FUNCTION corebank.core_interest_run(run_date date, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    operator uuid := coalesce(actor, corebank_internal.system_actor());
    first_day date;
    day date;
    -- Each day's result of interest_day, summed once at the end.
    days jsonb := '[]'::jsonb;
BEGIN
    PERFORM corebank_internal.deposit_run_date(run_date);
    -- Two runs at once would accrue the same day twice in their snapshots.
    PERFORM pg_advisory_xact_lock(hashtext('corebank.core_interest_run'));
    SELECT min(d.processed_through) + 1 INTO first_day
    FROM corebank.deposit_accounts d JOIN corebank.ledger_accounts a ON a.id = d.id
    WHERE a.status <> 'CLOSED' AND d.processed_through < run_date;
    IF first_day IS NOT NULL THEN
        first_day := greatest(first_day, run_date - 365);
        FOR day IN SELECT g::date FROM generate_series(first_day, run_date, interval '1 day') AS g LOOP
            days := days || jsonb_build_array(corebank_internal.interest_day(day, operator));
        END LOOP;
    END IF;
    RETURN (SELECT jsonb_build_object(
        'runDate', run_date, 'daysProcessed', count(*), 'accountsAccrued', coalesce(sum((d ->> 'accrued')::int), 0),
        'accrualTransactions', coalesce(sum((d ->> 'journals')::int), 0),
        'accrualsMinor', corebank_internal.interest_currency_totals(days, 'accruedByCurrency'),
        'interestPostings', coalesce(sum((d ->> 'postings')::int), 0),
        'interestPostedMinor', corebank_internal.interest_currency_totals(days, 'postedByCurrency'),
        'feesCharged', coalesce(sum((d ->> 'fees')::int), 0), 'feesSkipped', coalesce(sum((d ->> 'feesSkipped')::int), 0))
            FROM jsonb_array_elements(days) d);
END
$fn$;
