CREATE FUNCTION corebank.core_fx_rates_set(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    from_currency text;
    to_currency text;
    rate_text text;
    effective date;
    r corebank.exchange_rates;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    from_currency := upper(corebank_internal.json_trimmed(request, 'fromCurrency', 3));
    to_currency := upper(corebank_internal.json_trimmed(request, 'toCurrency', 3));
    effective := coalesce(corebank_internal.json_date(request, 'effectiveDate'), corebank_internal.business_today());
    IF from_currency IS NULL OR NOT EXISTS (SELECT FROM corebank.currencies c WHERE c.code = from_currency AND c.active) THEN
        PERFORM corebank_internal.fail('CBV00', 'fromCurrency: must be USD or ZWG');
    END IF;
    IF to_currency IS NULL OR NOT EXISTS (SELECT FROM corebank.currencies c WHERE c.code = to_currency AND c.active) THEN
        PERFORM corebank_internal.fail('CBV00', 'toCurrency: must be USD or ZWG');
    END IF;
    IF from_currency = to_currency THEN
        PERFORM corebank_internal.fail('CBV00', 'toCurrency: must differ from fromCurrency');
    END IF;
    IF jsonb_typeof(request -> 'rate') IN ('number', 'string') THEN
        rate_text := request ->> 'rate';
    END IF;
    IF rate_text IS NULL OR rate_text !~ '^[0-9]{1,10}(\.[0-9]{1,10})?$' OR rate_text::numeric <= 0 THEN
        PERFORM corebank_internal.fail('CBV00', 'rate: must be a positive decimal with at most 10 decimals');
    END IF;
    INSERT INTO corebank.exchange_rates AS x (from_currency, to_currency, rate, effective_date, created_by)
    VALUES (from_currency, to_currency, rate_text::numeric, effective, actor)
    ON CONFLICT DO NOTHING
    RETURNING x.* INTO r;
    IF r.id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', format('A %s to %s rate for %s is already set; rates are immutable',
                                                       from_currency, to_currency, effective));
    END IF;
    RETURN corebank_internal.fx_rate_json(r, false);
END
$fn$;
