-- PUT /v1/staff/identities/{id}/branch: UpdateStaffBranchRequest
-- {branchCode: code or null}; null assigns head office (unscoped). The
-- member is required (an empty body says nothing). Refused: an id that is
-- no staff identity or an unknown branch (CB404), an inactive branch
-- (CB422), one's own branch (CB403). Audited in staff_audit (user.branch,
-- before and after) when it changed.
CREATE FUNCTION corebank.core_staff_branch_set(user_id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    was text;
    wanted text;
    branch_active bool;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    IF NOT request ? 'branchCode' OR jsonb_typeof(request -> 'branchCode') NOT IN ('string', 'null') THEN
        PERFORM corebank_internal.fail('CBV00', 'branchCode: is required: a branch code, or null for head office');
    END IF;
    wanted := corebank_internal.json_text(request, 'branchCode', 20);
    SELECT u.branch_code INTO was FROM corebank.auth_users u WHERE u.id = user_id FOR UPDATE;
    IF NOT FOUND OR corebank_internal.staff_identity_json(user_id) IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Staff identity not found');
    END IF;
    IF wanted IS NOT NULL THEN
        SELECT b.active INTO branch_active FROM corebank.branches b WHERE b.code = wanted;
        IF NOT FOUND THEN
            PERFORM corebank_internal.fail('CB404', 'Branch not found');
        END IF;
        IF NOT branch_active THEN
            PERFORM corebank_internal.fail('CB422', 'branchCode: the branch is inactive');
        END IF;
    END IF;
    IF user_id = actor AND wanted IS DISTINCT FROM was THEN
        PERFORM corebank_internal.fail('CB403', 'Nobody changes their own branch');
    END IF;
    IF wanted IS DISTINCT FROM was THEN
        UPDATE corebank.auth_users u SET branch_code = wanted, updated_at = now() WHERE u.id = user_id;
        PERFORM corebank_internal.staff_audit_record(actor, 'user.branch', user_id::text,
                                                     jsonb_build_object('branchCode', was),
                                                     jsonb_build_object('branchCode', wanted));
    END IF;
    RETURN corebank_internal.staff_branch_json(user_id);
END
$fn$;
