CREATE FUNCTION corebank.core_deposit(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.money_run('deposit', request, actor);
END
$fn$;
