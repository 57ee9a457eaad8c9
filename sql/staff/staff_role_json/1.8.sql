-- StaffRoleView: {key, name, readOnly, permissions (sorted), createdAt,
-- updatedAt}; NULL for an unknown key.
CREATE FUNCTION corebank_internal.staff_role_json(role_key text) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                       'key', r.key, 'name', r.name, 'readOnly', r.read_only,
                       'permissions', to_jsonb(corebank_internal.staff_permissions_of(ARRAY[r.key])),
                       'createdAt', corebank_internal.iso_utc(r.created_at),
                       'updatedAt', corebank_internal.iso_utc(r.updated_at))
            FROM corebank.staff_roles r WHERE r.key = staff_role_json.role_key);
END
$fn$;
