-- POST /v1/approvals/{id}/approve, the one path by which staff approve any
-- parked change (FINERACT-2762): the checker's roles must hold the check
-- permission of the change's operation (staff_check_permitted), then
-- parked_change_approve decides and applies it.
CREATE OR REPLACE FUNCTION corebank.core_approval_approve(id uuid, actor uuid, comment text) RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    PERFORM corebank_internal.staff_check_permitted(core_approval_approve.id, core_approval_approve.actor);
    RETURN corebank.parked_change_approve(core_approval_approve.id, core_approval_approve.actor,
                                          core_approval_approve.comment);
END
$fn$;
