-- {resolution}: OPEN -> RESOLVED, stamped with the actor; RESOLVED is terminal.
CREATE OR REPLACE FUNCTION corebank.core_customers_case_resolve(id uuid, case_id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    k corebank.customer_cases;
    resolution text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    resolution := corebank_internal.json_trimmed(request, 'resolution', 4000);
    IF resolution IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'resolution: is required');
    END IF;
    -- A case of another branch's customer is unknown to a branch-scoped member.
    SELECT x.* INTO k FROM corebank.customer_cases x JOIN corebank.customers c ON c.id = x.customer_id
    WHERE x.id = case_id AND x.customer_id = id AND corebank.branch_visible(c.branch_id)
    FOR UPDATE OF x;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Case not found');
    END IF;
    IF k.status = 'RESOLVED' THEN
        PERFORM corebank_internal.fail('CB409', 'The case is already RESOLVED');
    END IF;
    UPDATE corebank.customer_cases x
    SET status = 'RESOLVED', resolved_by = actor, resolved_at = now(), resolution = resolution
    WHERE x.id = case_id
    RETURNING x.* INTO k;
    RETURN corebank_internal.case_json(k);
END
$fn$;
