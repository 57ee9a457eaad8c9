-- How many due rows one claim of an outbox (auth_mail_claim,
-- verify_webhook_claim) takes: what the sender asked for, at most 100
-- (least() passes over a NULL, so NULL asks for 100); below 1 is CBV00.
CREATE FUNCTION corebank_internal.outbox_claim_rows(max_rows int) RETURNS int
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    batch_rows int := least(max_rows, 100);
BEGIN
    IF batch_rows IS NULL OR batch_rows < 1 THEN
        PERFORM corebank_internal.fail('CBV00', 'max_rows: must be at least 1');
    END IF;
    RETURN batch_rows;
END
$fn$;
