-- PUT /v1/staff/roles/{roleKey}: UpdateStaffRoleRequest {name?,
-- permissions?}; an omitted member keeps its value, permissions given
-- replace the role's set. The key and readOnly cannot change (in the body they
-- must equal the role's own: CB422). Unknown role CB404. Audited
-- (staff_audit, role.update, before and after) when something changed.
CREATE FUNCTION corebank.core_staff_role_update(role_key text, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    new_name text;
    was_read_only bool;
    before jsonb;
    after jsonb;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    SELECT r.read_only INTO was_read_only FROM corebank.staff_roles r WHERE r.key = role_key FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Staff role not found');
    END IF;
    IF request ? 'key' AND corebank_internal.json_text(request, 'key', 40) IS DISTINCT FROM role_key THEN
        PERFORM corebank_internal.fail('CB422', 'key: a role''s key cannot be changed');
    END IF;
    IF request ? 'readOnly' AND corebank_internal.json_bool(request, 'readOnly') IS DISTINCT FROM was_read_only THEN
        PERFORM corebank_internal.fail('CB422', 'readOnly: is set when a role is created and cannot be changed');
    END IF;
    new_name := btrim(corebank_internal.json_text(request, 'name', 100));
    IF new_name = '' THEN
        PERFORM corebank_internal.fail('CBV00', 'name: must not be blank');
    END IF;
    before := corebank_internal.staff_role_json(role_key);
    IF request ? 'permissions' THEN
        PERFORM corebank_internal.staff_role_permissions_set(role_key, request -> 'permissions');
    END IF;
    IF new_name IS NOT NULL THEN
        UPDATE corebank.staff_roles r SET name = new_name WHERE r.key = role_key AND r.name <> new_name;
    END IF;
    after := corebank_internal.staff_role_json(role_key);
    IF after - 'updatedAt' IS DISTINCT FROM before - 'updatedAt' THEN
        UPDATE corebank.staff_roles r SET updated_at = now() WHERE r.key = role_key;
        after := corebank_internal.staff_role_json(role_key);
        PERFORM corebank_internal.staff_audit_record(actor, 'role.update', role_key, before, after);
    END IF;
    RETURN after;
END
$fn$;
