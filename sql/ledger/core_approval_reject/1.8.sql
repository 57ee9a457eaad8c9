-- POST /v1/approvals/{id}/reject: as core_approval_approve, the checker's
-- roles must hold the check permission of the change's operation; then
-- parked_change_reject records the refusal.
CREATE OR REPLACE FUNCTION corebank.core_approval_reject(id uuid, actor uuid, reason text) RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    PERFORM corebank_internal.staff_check_permitted(core_approval_reject.id, core_approval_reject.actor);
    RETURN corebank.parked_change_reject(core_approval_reject.id, core_approval_reject.actor,
                                         core_approval_reject.reason);
END
$fn$;
