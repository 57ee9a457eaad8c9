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
    stats jsonb;
    days int := 0;
    accrued int := 0;
    journals int := 0;
    postings int := 0;
    fees int := 0;
    fees_skipped int := 0;
    accrued_by_currency jsonb := '{}'::jsonb;
    posted_by_currency jsonb := '{}'::jsonb;
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
            stats := corebank_internal.interest_day(day, operator);
            days := days + 1;
            accrued := accrued + (stats ->> 'accrued')::int;
            journals := journals + (stats ->> 'journals')::int;
            postings := postings + (stats ->> 'postings')::int;
            fees := fees + (stats ->> 'fees')::int;
            fees_skipped := fees_skipped + (stats ->> 'feesSkipped')::int;
            accrued_by_currency := corebank_internal.currency_totals_add(accrued_by_currency, stats -> 'accruedByCurrency');
            posted_by_currency := corebank_internal.currency_totals_add(posted_by_currency, stats -> 'postedByCurrency');
        END LOOP;
    END IF;
    RETURN jsonb_build_object(
        'runDate', run_date, 'daysProcessed', days, 'accountsAccrued', accrued, 'accrualTransactions', journals,
        'accrualsMinor', (SELECT coalesce(jsonb_agg(jsonb_build_object('currency', x.key, 'amountMinor', x.value::text::bigint)
                                                    ORDER BY x.key), '[]'::jsonb) FROM jsonb_each(accrued_by_currency) x),
        'interestPostings', postings,
        'interestPostedMinor', (SELECT coalesce(jsonb_agg(jsonb_build_object('currency', x.key, 'amountMinor', x.value::text::bigint)
                                                          ORDER BY x.key), '[]'::jsonb) FROM jsonb_each(posted_by_currency) x),
        'feesCharged', fees, 'feesSkipped', fees_skipped);
END
$fn$;
