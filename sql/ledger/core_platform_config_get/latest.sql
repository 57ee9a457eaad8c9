CREATE FUNCTION corebank.core_platform_config_get() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.platform_config_json();
END
$fn$;
