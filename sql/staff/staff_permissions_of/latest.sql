-- The sorted, distinct permissions that a staff member holding `roles`
-- has: the union of those roles' permissions (staff_role_permissions). A
-- role name the table does not know grants nothing.
CREATE FUNCTION corebank_internal.staff_permissions_of(roles text[]) RETURNS text[]
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(array_agg(DISTINCT rp.permission_key COLLATE "C" ORDER BY rp.permission_key COLLATE "C"), '{}')
            FROM corebank.staff_role_permissions rp
            WHERE rp.role_key = ANY (staff_permissions_of.roles));
END
$fn$;
