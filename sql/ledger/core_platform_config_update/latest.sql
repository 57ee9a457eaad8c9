-- UpdatePlatformConfigRequest: {businessTimeZone?, todayOverride? (null
-- clears it), makerCheckerLapseHours?, baseCurrency? (must stay the same)}.
-- Omitted members keep their value.
CREATE OR REPLACE FUNCTION corebank.core_platform_config_update(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    zone text;
    lapse int;
    base text;
    current corebank.platform_config;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    zone := corebank_internal.json_text(request, 'businessTimeZone', 64);
    lapse := corebank_internal.json_int(request, 'makerCheckerLapseHours', 1, 8760);
    base := corebank_internal.json_text(request, 'baseCurrency', 3);
    IF zone IS NOT NULL AND NOT EXISTS (SELECT FROM pg_catalog.pg_timezone_names z WHERE z.name = zone) THEN
        PERFORM corebank_internal.fail('CBV00', 'businessTimeZone: must be an IANA time zone name such as Africa/Harare');
    END IF;
    SELECT * INTO current FROM corebank.platform_config FOR UPDATE;
    IF base IS NOT NULL AND base <> current.base_currency THEN
        PERFORM corebank_internal.fail('CB422', 'baseCurrency cannot be changed');
    END IF;
    UPDATE corebank.platform_config c
    SET business_time_zone = coalesce(zone, c.business_time_zone),
        today_override = CASE WHEN request ? 'todayOverride' THEN corebank_internal.json_date(request, 'todayOverride')
                              ELSE c.today_override END,
        lapse_hours = coalesce(lapse, c.lapse_hours),
        updated_at = now(), updated_by = actor;
    RETURN corebank_internal.platform_config_json();
END
$fn$;
