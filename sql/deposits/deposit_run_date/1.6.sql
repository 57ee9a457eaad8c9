-- The date of a batch run (interest, dormancy, standing orders): required,
-- and not after the business date.
CREATE FUNCTION corebank_internal.deposit_run_date(run_date date) RETURNS date
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    today date := corebank_internal.business_today();
BEGIN
    IF run_date IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'date: is required');
    END IF;
    IF run_date > today THEN
        PERFORM corebank_internal.fail('CB422', format('date: must not be after the business date %s', today));
    END IF;
    RETURN run_date;
END
$fn$;
