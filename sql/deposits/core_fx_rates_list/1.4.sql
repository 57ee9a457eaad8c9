-- Filter {date?, fromCurrency?, toCurrency?, history?}: the rates in force on
-- the date (one per pair), or every dated rate with history true.
CREATE FUNCTION corebank.core_fx_rates_list(filter jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    f jsonb := corebank_internal.require_object(coalesce(filter, '{}'::jsonb), 'filter');
    on_date date := coalesce(corebank_internal.json_date(f, 'date'), corebank_internal.business_today());
    from_filter text := upper(corebank_internal.json_trimmed(f, 'fromCurrency', 3));
    to_filter text := upper(corebank_internal.json_trimmed(f, 'toCurrency', 3));
    history bool := coalesce(corebank_internal.json_bool(f, 'history'), false);
BEGIN
    IF history THEN
        RETURN (SELECT coalesce(jsonb_agg(corebank_internal.fx_rate_json(r) ORDER BY r.from_currency, r.to_currency,
                                          r.effective_date DESC), '[]'::jsonb)
                FROM (SELECT * FROM corebank.exchange_rates x
                      WHERE (from_filter IS NULL OR x.from_currency = from_filter)
                        AND (to_filter IS NULL OR x.to_currency = to_filter)
                      ORDER BY x.effective_date DESC LIMIT 1000) r);
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.fx_rate_json(r) ORDER BY r.from_currency, r.to_currency), '[]'::jsonb)
            FROM (SELECT DISTINCT ON (x.from_currency, x.to_currency) x.*
                  FROM corebank.exchange_rates x
                  WHERE x.effective_date <= on_date AND (from_filter IS NULL OR x.from_currency = from_filter)
                    AND (to_filter IS NULL OR x.to_currency = to_filter)
                  ORDER BY x.from_currency, x.to_currency, x.effective_date DESC) r);
END
$fn$;
