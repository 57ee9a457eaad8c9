-- One row of the staff audit trail: who (actor), what (action, target),
-- before and after (JSON, NULL when there was none), when (now()).
CREATE FUNCTION corebank_internal.staff_audit_record(actor uuid, action text, target text, before jsonb, after jsonb)
    RETURNS void
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    INSERT INTO corebank.staff_audit (actor_id, action, target, before, after)
    VALUES (staff_audit_record.actor, staff_audit_record.action, staff_audit_record.target,
            staff_audit_record.before, staff_audit_record.after);
END
$fn$;
