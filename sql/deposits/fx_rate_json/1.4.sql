CREATE FUNCTION corebank_internal.fx_rate_json(r corebank.exchange_rates, derived bool DEFAULT false) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', r.id,
                              'fromCurrency', CASE WHEN derived THEN r.to_currency ELSE r.from_currency END,
                              'toCurrency', CASE WHEN derived THEN r.from_currency ELSE r.to_currency END,
                              'rate', CASE WHEN derived THEN round(1 / r.rate, 10) ELSE r.rate END::text,
                              'effectiveDate', r.effective_date, 'derived', derived,
                              'createdAt', corebank_internal.iso_utc(r.created_at), 'createdBy', r.created_by)
$fn$;
