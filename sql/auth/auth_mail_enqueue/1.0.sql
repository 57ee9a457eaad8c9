CREATE FUNCTION corebank.auth_mail_enqueue(recipient text, subject text, body_sealed bytea) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    new_id uuid;
BEGIN
    IF recipient IS NULL OR length(recipient) NOT BETWEEN 3 AND 254 THEN
        PERFORM corebank_internal.fail('CBV00', 'recipient: must be 3 to 254 characters');
    END IF;
    IF subject IS NULL OR length(subject) NOT BETWEEN 1 AND 200 THEN
        PERFORM corebank_internal.fail('CBV00', 'subject: must be 1 to 200 characters');
    END IF;
    IF body_sealed IS NULL OR length(body_sealed) NOT BETWEEN 1 AND 1048576 THEN
        PERFORM corebank_internal.fail('CBV00', 'body_sealed: must be 1 byte to 1 MiB');
    END IF;
    INSERT INTO corebank.auth_mail_outbox AS o (recipient, subject, body_sealed)
    VALUES (recipient, subject, body_sealed)
    RETURNING o.id INTO new_id;
    RETURN new_id;
END
$fn$;
