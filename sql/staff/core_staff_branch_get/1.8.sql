-- GET /v1/staff/identities/{id}/branch: the StaffBranchAssignmentResponse;
-- CB404 for an id that is no staff identity.
CREATE FUNCTION corebank.core_staff_branch_get(user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    answer jsonb := corebank_internal.staff_branch_json(user_id);
BEGIN
    IF answer IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Staff identity not found');
    END IF;
    RETURN answer;
END
$fn$;
