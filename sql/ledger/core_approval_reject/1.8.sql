-- POST /v1/approvals/{id}/reject: as core_approval_approve, the checker's
-- roles must hold the check permission of the change's operation; then
-- parked_change_reject records the refusal.
CREATE OR REPLACE FUNCTION corebank.core_approval_reject(id uuid, actor uuid, reason text) RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    -- Another branch's change is absent to a scoped checker (issue 15, branch
    -- scoping), before any permission check could tell it exists.
    IF EXISTS (SELECT FROM corebank.parked_changes p
               WHERE p.id = core_approval_reject.id AND NOT corebank.branch_visible(p.branch_id)) THEN
        PERFORM corebank_internal.fail('CB404', 'Approval not found');
    END IF;
    PERFORM corebank_internal.staff_check_permitted(core_approval_reject.id, core_approval_reject.actor);
    RETURN corebank.parked_change_reject(core_approval_reject.id, core_approval_reject.actor,
                                         core_approval_reject.reason);
END
$fn$;
