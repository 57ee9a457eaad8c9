-- One endpoint, or NULL when there is none with this id.
CREATE FUNCTION corebank.verify_webhook_endpoint_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.verify_webhook_endpoint_json(verify_webhook_endpoint_get.id);
END
$fn$;
