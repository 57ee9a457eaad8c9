-- GET /v1/approvals/{id}: the change with its target's current state beside
-- the state recorded when it was parked (before), so the approvals console
-- shows before, proposed and current field by field (issue 15).
CREATE OR REPLACE FUNCTION corebank.core_approval_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(
               corebank_internal.parked_change_json(corebank_internal.required_id(id))
                   || jsonb_build_object('current', (SELECT corebank_internal.parked_change_target(p.entity_type,
                                                                                                  p.entity_id)
                                                     FROM corebank.parked_changes p WHERE p.id = core_approval_get.id)),
               'Approval not found')
$fn$;
