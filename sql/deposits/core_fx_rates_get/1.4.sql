CREATE FUNCTION corebank.core_fx_rates_get(from_currency text, to_currency text, on_date date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    wanted date := coalesce(on_date, corebank_internal.business_today());
    found record;
BEGIN
    SELECT * INTO found FROM corebank_internal.fx_rate_in_force(upper(from_currency), upper(to_currency), wanted);
    IF found.rate IS NULL THEN
        PERFORM corebank_internal.fail('CB422', format('No exchange rate from %s to %s on %s', upper(from_currency),
                                                       upper(to_currency), wanted));
    END IF;
    RETURN found.rendered;
END
$fn$;
