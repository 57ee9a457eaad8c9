-- UpdateBranchScopingRequest {enabled}: parked (branch_scoping.update).
CREATE OR REPLACE FUNCTION corebank.core_branch_scoping_update_request(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    enabled bool;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    enabled := corebank_internal.json_bool(request, 'enabled');
    IF enabled IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'enabled: is required');
    END IF;
    RETURN corebank.parked_change_create('branch_scoping.update', 'platform', 'branch_scoping',
                                         jsonb_build_object('enabled', enabled),
                                         CASE WHEN enabled THEN 'Turn branch scoping on' ELSE 'Turn branch scoping off' END,
                                         actor);
END
$fn$;
