-- Records one attempt: delivered, or back to pending after the backoff, or
-- failed once attempts_max attempts are spent. A report on a delivery that
-- is no longer pending (a late duplicate) changes nothing. Returns the status.
CREATE FUNCTION corebank.verify_webhook_done(delivery_id uuid, ok bool, http_status int, error text,
                                             backoff_base_s int, backoff_max_s int, attempts_max int) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    new_status text;
BEGIN
    IF delivery_id IS NULL OR ok IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'delivery_id, ok: are required');
    END IF;
    IF http_status IS NOT NULL AND http_status NOT BETWEEN 100 AND 599 THEN
        PERFORM corebank_internal.fail('CBV00', 'http_status: must be between 100 and 599');
    END IF;
    IF backoff_base_s IS NULL OR backoff_base_s NOT BETWEEN 1 AND 86400
       OR backoff_max_s IS NULL OR backoff_max_s NOT BETWEEN backoff_base_s AND 604800
       OR attempts_max IS NULL OR attempts_max NOT BETWEEN 1 AND 100 THEN
        PERFORM corebank_internal.fail('CBV00', 'backoff_base_s, backoff_max_s, attempts_max: out of range');
    END IF;
    IF ok THEN
        UPDATE corebank.verify_webhook_deliveries d
        SET status = 'delivered', delivered_at = now(), last_http_status = http_status, last_error = NULL
        WHERE d.id = delivery_id AND d.status = 'pending'
        RETURNING d.status INTO new_status;
    ELSE
        UPDATE corebank.verify_webhook_deliveries d
        SET status = CASE WHEN d.attempts >= attempts_max THEN 'failed' ELSE 'pending' END,
            next_attempt_at = now() + corebank_internal.verify_webhook_backoff(d.attempts, backoff_base_s, backoff_max_s),
            last_http_status = http_status,
            last_error = left(coalesce(error, 'unknown error'), 1000)
        WHERE d.id = delivery_id AND d.status = 'pending'
        RETURNING d.status INTO new_status;
    END IF;
    IF new_status IS NULL THEN
        SELECT d.status INTO new_status FROM corebank.verify_webhook_deliveries d WHERE d.id = delivery_id;
        IF NOT FOUND THEN
            PERFORM corebank_internal.fail('CB404', 'Webhook delivery not found');
        END IF;
    END IF;
    RETURN new_status;
END
$fn$;
