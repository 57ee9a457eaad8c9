-- Queues a webhook.ping event for one active endpoint, through the same
-- outbox, signature and retries as every other event: a receiver sees
-- exactly what a real event will look like. Returns the event and its
-- delivery.
CREATE FUNCTION corebank.verify_webhook_ping(endpoint_id uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    current_status text;
    event_id uuid := gen_random_uuid();
    event_at timestamptz := now();
    delivery uuid;
BEGIN
    PERFORM corebank_internal.require_present(endpoint_id, 'endpoint_id');
    SELECT e.status INTO current_status FROM corebank.verify_webhook_endpoints e WHERE e.id = endpoint_id FOR SHARE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Webhook endpoint not found');
    END IF;
    IF current_status <> 'active' THEN
        PERFORM corebank_internal.fail('CB409', 'Webhook endpoint is disabled');
    END IF;
    -- The body holds only values that need no escaping (UUIDs, a fixed type,
    -- a timestamp), compact and in the documented key order.
    INSERT INTO corebank.verify_webhook_events (id, type, session_id, endpoint_id, created_at, body)
    VALUES (event_id, 'webhook.ping', NULL, endpoint_id, event_at,
            format('{"id":"%s","type":"webhook.ping","createdAt":"%s","data":{"endpointId":"%s"}}',
                   event_id, corebank_internal.verify_iso_utc(event_at), endpoint_id));
    INSERT INTO corebank.verify_webhook_deliveries AS d (event_id, endpoint_id)
    VALUES (event_id, endpoint_id)
    RETURNING d.id INTO delivery;
    RETURN corebank_internal.verify_webhook_delivery_json(delivery);
END
$fn$;
