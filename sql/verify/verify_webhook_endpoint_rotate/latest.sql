-- Replaces the signing secret. The old one keeps signing beside the new one
-- for overlap_s seconds (0: not at all), so receivers can switch without a
-- window in which valid deliveries fail; a second rotation during an overlap
-- ends the first one (only the secret just replaced is kept).
CREATE FUNCTION corebank.verify_webhook_endpoint_rotate(id uuid, secret_sealed bytea, overlap_s int) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    current_status text;
BEGIN
    PERFORM corebank_internal.require_present(id, 'id');
    IF secret_sealed IS NULL OR length(secret_sealed) NOT BETWEEN 29 AND 1024 THEN
        PERFORM corebank_internal.fail('CBV00', 'secret_sealed: must be a sealed secret (29 to 1024 bytes)');
    END IF;
    IF overlap_s IS NULL OR overlap_s NOT BETWEEN 0 AND 604800 THEN
        PERFORM corebank_internal.fail('CBV00', 'overlapSeconds: must be between 0 and 604800 (7 days)');
    END IF;
    SELECT e.status INTO current_status FROM corebank.verify_webhook_endpoints e WHERE e.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Webhook endpoint not found');
    END IF;
    IF current_status <> 'active' THEN
        PERFORM corebank_internal.fail('CB409', 'Webhook endpoint is disabled');
    END IF;
    UPDATE corebank.verify_webhook_endpoints e
    SET previous_secret_sealed = CASE WHEN overlap_s > 0 THEN e.secret_sealed END,
        previous_secret_expires_at = CASE WHEN overlap_s > 0 THEN now() + make_interval(secs => overlap_s) END,
        secret_sealed = verify_webhook_endpoint_rotate.secret_sealed,
        secret_rotated_at = now()
    WHERE e.id = id;
    RETURN corebank_internal.verify_webhook_endpoint_json(id);
END
$fn$;
