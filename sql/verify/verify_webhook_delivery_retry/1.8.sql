-- Requeues a failed delivery for one more attempt, due now. Only a failed
-- one: a delivered one was received (409), a pending one is retried by the
-- sender anyway (409), one of a disabled endpoint has nowhere to go (409).
-- The attempt count goes on, so an attempt that fails again leaves the
-- delivery failed (attempts_max is spent) instead of restarting the schedule.
CREATE FUNCTION corebank.verify_webhook_delivery_retry(endpoint_id uuid, delivery_id uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    current_status text;
    endpoint_status text;
BEGIN
    PERFORM corebank_internal.require_present(endpoint_id, 'endpoint_id');
    PERFORM corebank_internal.require_present(delivery_id, 'delivery_id');
    SELECT d.status, p.status INTO current_status, endpoint_status
    FROM corebank.verify_webhook_deliveries d
    JOIN corebank.verify_webhook_endpoints p ON p.id = d.endpoint_id
    WHERE d.id = delivery_id AND d.endpoint_id = endpoint_id
    FOR UPDATE OF d;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Webhook delivery not found');
    END IF;
    IF endpoint_status <> 'active' THEN
        PERFORM corebank_internal.fail('CB409', 'Webhook endpoint is disabled');
    END IF;
    IF current_status = 'delivered' THEN
        PERFORM corebank_internal.fail('CB409', 'Webhook delivery was delivered; only a failed delivery can be retried');
    END IF;
    IF current_status = 'pending' THEN
        PERFORM corebank_internal.fail('CB409', 'Webhook delivery is still pending; the sender retries it by itself');
    END IF;
    UPDATE corebank.verify_webhook_deliveries d
    SET status = 'pending', next_attempt_at = now()
    WHERE d.id = delivery_id;
    RETURN corebank_internal.verify_webhook_delivery_json(delivery_id);
END
$fn$;
