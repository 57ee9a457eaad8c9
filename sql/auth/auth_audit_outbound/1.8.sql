-- AFTER INSERT on corebank.auth_audit: every identity move already writes
-- its audit row, so this one place turns the rows that matter into outbound
-- events, in the move's own transaction. Definer: the writer of the audit
-- row (the app role, C++ or SQL) has no right on the outbox.
CREATE FUNCTION corebank_internal.auth_audit_outbound() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    outbound text := corebank_internal.auth_outbound_event_type(NEW.event, NEW.detail);
BEGIN
    IF outbound IS NOT NULL AND NEW.user_id IS NOT NULL THEN
        PERFORM corebank_internal.auth_outbound_event_enqueue(outbound, NEW.user_id);
    END IF;
    RETURN NULL;
END
$fn$;
