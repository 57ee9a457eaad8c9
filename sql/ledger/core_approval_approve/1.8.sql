-- POST /v1/approvals/{id}/approve, the one path by which staff approve any
-- parked change (FINERACT-2762): the checker's roles must hold the check
-- permission of the change's operation (staff_check_permitted), then
-- parked_change_approve decides and applies it.
CREATE OR REPLACE FUNCTION corebank.core_approval_approve(id uuid, actor uuid, comment text) RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    -- Another branch's change is absent to a scoped checker (issue 15, branch
    -- scoping), before any permission check could tell it exists.
    IF EXISTS (SELECT FROM corebank.parked_changes p
               WHERE p.id = core_approval_approve.id AND NOT corebank.branch_visible(p.branch_id)) THEN
        PERFORM corebank_internal.fail('CB404', 'Approval not found');
    END IF;
    PERFORM corebank_internal.staff_check_permitted(core_approval_approve.id, core_approval_approve.actor);
    RETURN corebank.parked_change_approve(core_approval_approve.id, core_approval_approve.actor,
                                          core_approval_approve.comment);
END
$fn$;
