-- The 1.3 signature, kept for a 1.7 tier still running during an upgrade:
-- an endpoint without a description, registered by verify_webhook_endpoint_create.
CREATE OR REPLACE FUNCTION corebank.verify_webhook_endpoint_add(url text, secret_sealed bytea) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank.verify_webhook_endpoint_create(verify_webhook_endpoint_add.url, NULL, NULL,
                                                   verify_webhook_endpoint_add.secret_sealed);
END
$fn$;
