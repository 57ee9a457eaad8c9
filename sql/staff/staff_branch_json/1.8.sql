-- StaffBranchAssignmentResponse: {identityId, username, branchCode,
-- branchName, headOffice}; a NULL branch is head office (headOffice true,
-- unscoped). NULL for an id that is no staff identity.
CREATE FUNCTION corebank_internal.staff_branch_json(user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF corebank_internal.staff_identity_json(user_id) IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN (SELECT jsonb_build_object('identityId', u.id, 'username', u.username, 'branchCode', u.branch_code,
                                      'branchName', b.name, 'headOffice', u.branch_code IS NULL)
            FROM corebank.auth_users u LEFT JOIN corebank.branches b ON b.code = u.branch_code
            WHERE u.id = staff_branch_json.user_id);
END
$fn$;
