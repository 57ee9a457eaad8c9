-- Records a delivery: SENT (the sealed body is dropped), or after a failure
-- back to PENDING with backoff, FAILED once 8 attempts are spent.
CREATE FUNCTION corebank.auth_mail_done(id uuid, ok bool, error text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    attempts_max CONSTANT int := 8;
BEGIN
    IF id IS NULL OR ok IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id, ok: are required');
    END IF;
    IF ok THEN
        UPDATE corebank.auth_mail_outbox o
        SET status = 'SENT', sent_at = now(), body_sealed = NULL, last_error = NULL
        WHERE o.id = id AND o.status = 'PENDING';
    ELSE
        UPDATE corebank.auth_mail_outbox o
        SET status = CASE WHEN o.attempts >= attempts_max THEN 'FAILED' ELSE 'PENDING' END,
            body_sealed = CASE WHEN o.attempts >= attempts_max THEN NULL ELSE o.body_sealed END,
            last_error = left(coalesce(error, 'unknown error'), 1000),
            next_attempt_at = now() + corebank_internal.mail_backoff(o.attempts)
        WHERE o.id = id AND o.status = 'PENDING';
    END IF;
    IF NOT FOUND AND NOT EXISTS (SELECT FROM corebank.auth_mail_outbox o WHERE o.id = id) THEN
        PERFORM corebank_internal.fail('CB404', 'Mail not found');
    END IF;
END
$fn$;
