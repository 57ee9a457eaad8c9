CREATE FUNCTION corebank.verify_webhook_endpoint_add(url text, secret_sealed bytea) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    created jsonb;
BEGIN
    IF url IS NULL OR url !~ '^https?://[^\s/]+[^\s]*$' OR length(url) > 2048 THEN
        PERFORM corebank_internal.fail('CBV00', 'url: must be an absolute http(s) URL of at most 2048 characters');
    END IF;
    IF secret_sealed IS NULL OR length(secret_sealed) NOT BETWEEN 29 AND 1024 THEN
        PERFORM corebank_internal.fail('CBV00', 'secret_sealed: must be a sealed secret (29 to 1024 bytes)');
    END IF;
    INSERT INTO corebank.verify_webhook_endpoints AS e (url, secret_sealed)
    VALUES (url, secret_sealed)
    RETURNING jsonb_build_object('id', e.id, 'url', e.url, 'status', e.status,
                                 'createdAt', corebank_internal.verify_iso_utc(e.created_at))
    INTO created;
    RETURN created;
END
$fn$;
