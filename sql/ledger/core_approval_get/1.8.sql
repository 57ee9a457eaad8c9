-- GET /v1/approvals/{id}: the change with its target's current state beside
-- the state recorded when it was parked (before), so the approvals console
-- shows before, proposed and current field by field (issue 15). Another
-- branch's change is absent to a scoped checker (issue 15, branch scoping;
-- plpgsql, as parked_changes.branch_id is added by a later section of 1.8).
CREATE OR REPLACE FUNCTION corebank.core_approval_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    wanted uuid := corebank_internal.required_id(core_approval_get.id);
BEGIN
    RETURN corebank_internal.found_or_404(
               (SELECT corebank_internal.parked_change_json(p.id)
                           || jsonb_build_object('current', corebank_internal.parked_change_target(p.entity_type,
                                                                                                  p.entity_id))
                FROM corebank.parked_changes p
                WHERE p.id = wanted AND corebank.branch_visible(p.branch_id)),
               'Approval not found');
END
$fn$;
