-- Claims due deliveries for one sender. SKIP LOCKED lets several tier
-- processes share the outbox; the claim counts the attempt and leases the
-- row for lease_s seconds, so a row whose sender died is due again after it.
-- previous_secret_sealed is the secret a rotation replaced, while its
-- overlap lasts: the sender signs with both.
CREATE FUNCTION corebank.verify_webhook_claim(max_rows int, lease_s int)
    RETURNS TABLE (delivery_id uuid, event_id uuid, endpoint_id uuid, url text, secret_sealed bytea, body text,
                   attempts int, previous_secret_sealed bytea)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_column
DECLARE
    batch_rows int := corebank_internal.outbox_claim_rows(verify_webhook_claim.max_rows);
BEGIN
    IF verify_webhook_claim.lease_s IS NULL OR verify_webhook_claim.lease_s NOT BETWEEN 1 AND 3600 THEN
        PERFORM corebank_internal.fail('CBV00', 'lease_s: must be between 1 and 3600');
    END IF;
    RETURN QUERY
    WITH due AS (
        SELECT d.id
        FROM corebank.verify_webhook_deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= now()
        ORDER BY d.next_attempt_at
        LIMIT batch_rows
        FOR UPDATE SKIP LOCKED
    )
    UPDATE corebank.verify_webhook_deliveries d
    SET attempts = d.attempts + 1,
        last_attempt_at = now(),
        next_attempt_at = now() + make_interval(secs => verify_webhook_claim.lease_s)
    FROM due, corebank.verify_webhook_events e, corebank.verify_webhook_endpoints p
    WHERE d.id = due.id AND e.id = d.event_id AND p.id = d.endpoint_id
    RETURNING d.id, d.event_id, d.endpoint_id, p.url, p.secret_sealed, e.body, d.attempts,
              CASE WHEN p.previous_secret_expires_at > now() THEN p.previous_secret_sealed END;
END
$fn$;
