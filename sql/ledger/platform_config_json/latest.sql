CREATE FUNCTION corebank_internal.platform_config_json() RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'businessTimeZone', c.business_time_zone, 'today', corebank_internal.business_today(),
                'todayOverride', c.today_override, 'makerCheckerLapseHours', c.lapse_hours,
                'baseCurrency', c.base_currency,
                'currencies', (SELECT jsonb_agg(jsonb_build_object('code', x.code, 'name', x.name,
                                                                   'minorUnits', x.minor_units) ORDER BY x.code)
                               FROM corebank.currencies x WHERE x.active),
                'updatedAt', corebank_internal.iso_utc(c.updated_at), 'updatedBy', c.updated_by)
            FROM corebank.platform_config c);
END
$fn$;
