-- GET /v1/staff/roles: every role as StaffRoleView, sorted by key.
CREATE FUNCTION corebank.core_staff_roles_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.staff_role_json(r.key) ORDER BY r.key COLLATE "C"), '[]')
            FROM corebank.staff_roles r);
END
$fn$;
