-- One delivery of the endpoint's log. nextAttemptAt only while pending
-- (a claimed row's lease is not a schedule worth showing as one).
CREATE FUNCTION corebank_internal.verify_webhook_delivery_json(delivery_id uuid) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT jsonb_build_object(
               'id', d.id, 'endpointId', d.endpoint_id, 'eventId', e.id, 'eventType', e.type,
               'sessionId', e.session_id, 'status', d.status, 'attempts', d.attempts,
               'lastAttemptAt', corebank_internal.verify_iso_utc(d.last_attempt_at),
               'lastHttpStatus', d.last_http_status, 'lastError', d.last_error,
               'nextAttemptAt', CASE WHEN d.status = 'pending'
                                     THEN corebank_internal.verify_iso_utc(d.next_attempt_at) END,
               'deliveredAt', corebank_internal.verify_iso_utc(d.delivered_at),
               'createdAt', corebank_internal.verify_iso_utc(d.created_at))
    FROM corebank.verify_webhook_deliveries d
    JOIN corebank.verify_webhook_events e ON e.id = d.event_id
    WHERE d.id = delivery_id
$fn$;
