-- Claims due mail for one sender. SKIP LOCKED lets several senders share the
-- work; the claim counts the attempt and pushes next_attempt_at by the
-- backoff, so rows claimed by a sender that died come back by themselves.
CREATE OR REPLACE FUNCTION corebank.auth_mail_claim(max_rows int)
    RETURNS TABLE (id uuid, recipient text, subject text, body_sealed bytea, attempts int)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_column
DECLARE
    batch_rows int := corebank_internal.outbox_claim_rows(auth_mail_claim.max_rows);
BEGIN
    RETURN QUERY
    WITH due AS (
        SELECT o.id
        FROM corebank.auth_mail_outbox o
        WHERE o.status = 'PENDING' AND o.next_attempt_at <= now()
        ORDER BY o.next_attempt_at
        LIMIT batch_rows
        FOR UPDATE SKIP LOCKED
    )
    UPDATE corebank.auth_mail_outbox o
    SET attempts = o.attempts + 1,
        next_attempt_at = now() + corebank_internal.mail_backoff(o.attempts + 1)
    FROM due
    WHERE o.id = due.id
    RETURNING o.id, o.recipient, o.subject, o.body_sealed, o.attempts;
END
$fn$;
