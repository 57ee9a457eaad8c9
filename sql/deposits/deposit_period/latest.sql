-- The period of a statement or report: from defaults to the first of the
-- business month, to to the business date; CBV00 unless to is on or after
-- from and at most 366 days later.
CREATE FUNCTION corebank_internal.deposit_period(from_date date, to_date date, OUT first_day date, OUT last_day date)
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    today date := corebank_internal.business_today();
BEGIN
    first_day := coalesce(from_date, date_trunc('month', today)::date);
    last_day := coalesce(to_date, today);
    IF last_day < first_day OR last_day - first_day > 366 THEN
        PERFORM corebank_internal.fail('CBV00', 'to: must be on or after from and at most 366 days later');
    END IF;
END
$fn$;
