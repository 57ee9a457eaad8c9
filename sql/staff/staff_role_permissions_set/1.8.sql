-- Replaces a role's permissions with `permissions` (a JSON array of
-- permission keys, at most staff_permissions' size): CBV00 when it is not an
-- array of known keys, CB422 when the role is read-only and one of them is a
-- write permission (staff_role_permission_guard says the same to psql).
CREATE FUNCTION corebank_internal.staff_role_permissions_set(role_key text, permissions jsonb) RETURNS void
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    permissions_max CONSTANT int := 500;
    wanted text[];
    unknown text;
BEGIN
    IF jsonb_typeof(permissions) IS DISTINCT FROM 'array' THEN
        PERFORM corebank_internal.fail('CBV00', 'permissions: must be an array of permission keys');
    END IF;
    IF jsonb_array_length(permissions) > permissions_max THEN
        PERFORM corebank_internal.fail('CBV00', format('permissions: at most %s', permissions_max));
    END IF;
    IF EXISTS (SELECT FROM jsonb_array_elements(permissions) AS x(p) WHERE jsonb_typeof(x.p) <> 'string') THEN
        PERFORM corebank_internal.fail('CBV00', 'permissions: must be an array of permission keys');
    END IF;
    wanted := ARRAY(SELECT DISTINCT x.p FROM jsonb_array_elements_text(permissions) AS x(p));
    SELECT w.key INTO unknown FROM unnest(wanted) AS w(key)
    WHERE NOT EXISTS (SELECT FROM corebank.staff_permissions p WHERE p.key = w.key)
    ORDER BY 1 LIMIT 1;
    IF unknown IS NOT NULL THEN
        PERFORM corebank_internal.fail('CBV00', format('permissions: unknown permission %s (GET /v1/staff/permissions)',
                                                       left(unknown, 100)));
    END IF;
    DELETE FROM corebank.staff_role_permissions rp
    WHERE rp.role_key = role_key AND rp.permission_key <> ALL (wanted);
    INSERT INTO corebank.staff_role_permissions (role_key, permission_key)
    SELECT role_key, w.key FROM unnest(wanted) AS w(key)
    ON CONFLICT DO NOTHING;
END
$fn$;
