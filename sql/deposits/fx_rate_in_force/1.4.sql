-- The rate from -> to in force on a date: direct, else the inverse of the
-- opposite pair (derived). NULL row when none.
CREATE FUNCTION corebank_internal.fx_rate_in_force(from_currency text, to_currency text, on_date date,
                                                   OUT rate numeric, OUT rendered jsonb)
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    r corebank.exchange_rates;
BEGIN
    SELECT * INTO r FROM corebank.exchange_rates x
    WHERE x.from_currency = fx_rate_in_force.from_currency AND x.to_currency = fx_rate_in_force.to_currency
      AND x.effective_date <= on_date
    ORDER BY x.effective_date DESC LIMIT 1;
    IF FOUND THEN
        rate := r.rate;
        rendered := corebank_internal.fx_rate_json(r, false);
        RETURN;
    END IF;
    SELECT * INTO r FROM corebank.exchange_rates x
    WHERE x.from_currency = fx_rate_in_force.to_currency AND x.to_currency = fx_rate_in_force.from_currency
      AND x.effective_date <= on_date
    ORDER BY x.effective_date DESC LIMIT 1;
    IF FOUND THEN
        rate := round(1 / r.rate, 10);
        rendered := corebank_internal.fx_rate_json(r, true);
    END IF;
END
$fn$;
