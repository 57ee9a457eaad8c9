CREATE FUNCTION corebank.core_transfer(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.money_run('transfer', request, actor);
END
$fn$;
