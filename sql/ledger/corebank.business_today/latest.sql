CREATE FUNCTION corebank.business_today() RETURNS date
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.business_today();
END
$fn$;
