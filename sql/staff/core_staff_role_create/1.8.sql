-- POST /v1/staff/roles: CreateStaffRoleRequest {key, name, permissions?,
-- readOnly?}. The key (^[a-z][a-z0-9_]{1,39}$) is the role's identity and
-- never changes; a key taken is CB409; a read-only role holds read
-- permissions only (CB422). Audited (staff_audit, role.create).
CREATE FUNCTION corebank.core_staff_role_create(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    new_key text;
    new_name text;
    is_read_only bool;
    created jsonb;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    new_key := corebank_internal.json_text(request, 'key', 40);
    IF new_key IS NULL OR new_key !~ '^[a-z][a-z0-9_]{1,39}$' THEN
        PERFORM corebank_internal.fail('CBV00',
            'key: must be 2 to 40 characters: a lower-case letter, then lower-case letters, digits or _');
    END IF;
    new_name := btrim(corebank_internal.json_text(request, 'name', 100));
    IF new_name IS NULL OR new_name = '' THEN
        PERFORM corebank_internal.fail('CBV00', 'name: is required (1 to 100 characters)');
    END IF;
    is_read_only := coalesce(corebank_internal.json_bool(request, 'readOnly'), false);
    INSERT INTO corebank.staff_roles (key, name, read_only) VALUES (new_key, new_name, is_read_only)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB409', format('role %s already exists', new_key));
    END IF;
    PERFORM corebank_internal.staff_role_permissions_set(new_key, coalesce(request -> 'permissions', '[]'));
    created := corebank_internal.staff_role_json(new_key);
    PERFORM corebank_internal.staff_audit_record(actor, 'role.create', new_key, NULL, created);
    RETURN created;
END
$fn$;
