-- One single check, or NULL when there is none with this id.
CREATE FUNCTION corebank.verify_check_get(check_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.verify_check_json(verify_check_get.check_id);
END
$fn$;
