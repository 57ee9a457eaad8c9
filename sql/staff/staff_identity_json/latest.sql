-- StaffIdentityView: {id, username, email, phone, displayName, roles,
-- status, branchCode, passwordSet, createdAt, updatedAt}; NULL for an
-- unknown id or a user holding no staff role (a customer is no staff
-- identity). status: ACTIVE, DISABLED (stored as SUSPENDED: the identity
-- service's reversible "may not sign in") or DEACTIVATED (final).
CREATE FUNCTION corebank_internal.staff_identity_json(user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                       'id', u.id, 'username', u.username, 'email', u.email, 'phone', u.phone,
                       'displayName', coalesce(u.display_name, nullif(concat_ws(' ', u.first_name, u.last_name), '')),
                       'roles', to_jsonb(u.roles),
                       'status', CASE u.status WHEN 'SUSPENDED' THEN 'DISABLED' ELSE u.status END,
                       'branchCode', u.branch_code, 'passwordSet', u.password_hash IS NOT NULL,
                       'createdAt', corebank_internal.iso_utc(u.created_at),
                       'updatedAt', corebank_internal.iso_utc(u.updated_at))
            FROM corebank.auth_users u
            WHERE u.id = staff_identity_json.user_id
              AND u.roles && ARRAY(SELECT r.key FROM corebank.staff_roles r));
END
$fn$;
