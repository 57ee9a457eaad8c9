-- Queues one identity event in the verification service's webhook outbox
-- (the deployment's one delivery mechanism: same endpoints, signature,
-- retries and delivery log), for every active endpoint whose events filter
-- is absent or names the type. Called by triggers, so the event commits or
-- rolls back with the move it announces. The body holds the user's id only:
-- no email, name or phone, so a receiver's logs hold no personal data and
-- an erased user leaves none behind in the outbox; the receiver fetches the
-- state it needs with its own credentials.
CREATE FUNCTION corebank_internal.auth_outbound_event_enqueue(type text, user_id uuid) RETURNS void
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    event_id uuid := gen_random_uuid();
    event_at timestamptz := now();
BEGIN
    -- The body holds only values that need no escaping (a UUID, a fixed
    -- type, a timestamp), compact and in the documented key order.
    INSERT INTO corebank.verify_webhook_events (id, type, session_id, endpoint_id, created_at, body)
    VALUES (event_id, type, NULL, NULL, event_at,
            format('{"id":"%s","type":"%s","createdAt":"%s","data":{"userId":"%s"}}',
                   event_id, type, corebank_internal.verify_iso_utc(event_at), user_id));
    INSERT INTO corebank.verify_webhook_deliveries (event_id, endpoint_id)
    SELECT event_id, p.id FROM corebank.verify_webhook_endpoints p
    WHERE p.status = 'active' AND (p.events IS NULL OR type = ANY (p.events));
END
$fn$;
