-- Disabling an endpoint abandons its pending deliveries: nobody will take them.
-- Disabling a disabled endpoint changes nothing and answers the same.
CREATE OR REPLACE FUNCTION corebank.verify_webhook_endpoint_disable(id uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    current_status text;
BEGIN
    PERFORM corebank_internal.require_present(id, 'id');
    SELECT e.status INTO current_status FROM corebank.verify_webhook_endpoints e WHERE e.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Webhook endpoint not found');
    END IF;
    IF current_status = 'active' THEN
        UPDATE corebank.verify_webhook_endpoints e SET status = 'disabled', disabled_at = now() WHERE e.id = id;
        UPDATE corebank.verify_webhook_deliveries d SET status = 'abandoned', last_error = 'endpoint disabled'
        WHERE d.endpoint_id = id AND d.status = 'pending';
    END IF;
    RETURN corebank_internal.verify_webhook_endpoint_json(id);
END
$fn$;
