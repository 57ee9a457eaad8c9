CREATE FUNCTION corebank.events_platforms_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN jsonb_build_object(
        'platforms', (SELECT coalesce(jsonb_agg(jsonb_build_object('name', p.name, 'active', p.active)
                                                ORDER BY p.active DESC, p.name), '[]'::jsonb)
                      FROM corebank.event_platforms p),
        'homeCountryCallingCode', (SELECT s.home_country_calling_code FROM corebank.event_settings s));
END
$fn$;
