-- PUT /v1/staff/identities/{username}: UpdateStaffIdentityRequest {email?,
-- displayName?, roles?, status?}; an omitted member keeps its value.
-- status is ACTIVE or DISABLED: disabling stores SUSPENDED and revokes
-- every live session in this transaction (the identity's tokens stop at
-- once); DEACTIVATED is final and not changed here. Refused: an unknown
-- username or a user with no staff role (CB404), a change of one's own
-- roles or status (CB403), the last active admin disabled or demoted
-- (CB422, by the trigger auth_users_last_admin, for every writer), an
-- email another identity has (CB409). Audited in staff_audit (user.update,
-- the view before and after, with the actor; the roles trigger adds its
-- user.roles row) and, for the status, in auth_audit (suspended, reinstated).
CREATE FUNCTION corebank.core_staff_identity_update(username text, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    target corebank.auth_users;
    before jsonb;
    after jsonb;
    new_roles text[];
    new_status text;
    wanted_status text;
    new_email text;
    new_display text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    -- Every change that could leave no active admin queues here first, before
    -- the row lock, in the order the auth_users_last_admin trigger (which
    -- refuses it, CB422) takes the same lock again.
    IF request ? 'roles' OR request ? 'status' THEN
        PERFORM pg_advisory_xact_lock(hashtext('corebank.staff_last_admin'));
    END IF;
    SELECT u.* INTO target FROM corebank.auth_users u WHERE u.username = lower(username) FOR UPDATE;
    IF NOT FOUND OR corebank_internal.staff_identity_json(target.id) IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Staff identity not found');
    END IF;
    before := corebank_internal.staff_identity_json(target.id);

    new_roles := target.roles;
    IF request ? 'roles' THEN
        IF jsonb_typeof(request -> 'roles') IS DISTINCT FROM 'array'
           OR EXISTS (SELECT FROM jsonb_array_elements(request -> 'roles') AS x(r) WHERE jsonb_typeof(x.r) <> 'string') THEN
            PERFORM corebank_internal.fail('CBV00', 'roles: must be an array of role keys');
        END IF;
        IF jsonb_array_length(request -> 'roles') > 32 THEN
            PERFORM corebank_internal.fail('CBV00', 'roles: must be at most 32 role keys');
        END IF;
        new_roles := corebank_internal.staff_identity_roles_check(ARRAY(SELECT jsonb_array_elements_text(request -> 'roles')));
    END IF;
    new_status := target.status;
    IF request ? 'status' THEN
        wanted_status := corebank_internal.json_text(request, 'status', 20);
        IF wanted_status IS NULL OR wanted_status NOT IN ('ACTIVE', 'DISABLED') THEN
            PERFORM corebank_internal.fail('CBV00', 'status: must be ACTIVE or DISABLED');
        END IF;
        IF target.status = 'DEACTIVATED' THEN
            PERFORM corebank_internal.fail('CB422', 'status: a deactivated identity stays deactivated');
        END IF;
        new_status := CASE wanted_status WHEN 'DISABLED' THEN 'SUSPENDED' ELSE 'ACTIVE' END;
    END IF;
    new_email := target.email;
    IF request ? 'email' THEN
        new_email := corebank_internal.normalize_email(corebank_internal.json_text(request, 'email', 254));
        IF new_email IS NULL OR position('@' IN new_email) = 0 OR length(new_email) NOT BETWEEN 3 AND 254 THEN
            PERFORM corebank_internal.fail('CBV00', 'email: must be a well-formed email address of at most 254 characters');
        END IF;
    END IF;
    new_display := target.display_name;
    IF request ? 'displayName' THEN
        new_display := nullif(btrim(corebank_internal.json_text(request, 'displayName', 100)), '');
    END IF;

    IF target.id = actor AND (new_roles IS DISTINCT FROM target.roles OR new_status IS DISTINCT FROM target.status) THEN
        PERFORM corebank_internal.fail('CB403', 'Nobody changes their own roles or status');
    END IF;
    IF new_email IS DISTINCT FROM target.email
       AND EXISTS (SELECT FROM corebank.auth_users u WHERE u.email = new_email AND u.id <> target.id) THEN
        PERFORM corebank_internal.fail('CB409', 'email: another identity has this email');
    END IF;

    UPDATE corebank.auth_users u
    SET roles = new_roles, status = new_status, email = new_email, display_name = new_display,
        email_verified_at = CASE WHEN new_email IS DISTINCT FROM target.email THEN NULL ELSE u.email_verified_at END,
        updated_at = now()
    WHERE u.id = target.id
      AND (u.roles, u.status, u.email, u.display_name) IS DISTINCT FROM (new_roles, new_status, new_email, new_display);
    -- A set-password link mailed to the old address dies with it.
    IF new_email IS DISTINCT FROM target.email THEN
        UPDATE corebank.auth_reset_tokens t SET used_at = now() WHERE t.user_id = target.id AND t.used_at IS NULL;
    END IF;
    IF new_status = 'SUSPENDED' AND target.status <> 'SUSPENDED' THEN
        PERFORM corebank_internal.audit(target.id, 'suspended', jsonb_build_object(
            'by', actor, 'reason', 'staff identity disabled',
            'revokedSessions', corebank_internal.auth_sessions_revoke_live(target.id, 'suspended')));
    ELSIF new_status = 'ACTIVE' AND target.status = 'SUSPENDED' THEN
        PERFORM corebank_internal.audit(target.id, 'reinstated', jsonb_build_object('by', actor,
                                                                                    'reason', 'staff identity enabled'));
    END IF;
    after := corebank_internal.staff_identity_json(target.id);
    IF after - 'updatedAt' IS DISTINCT FROM before - 'updatedAt' THEN
        PERFORM corebank_internal.staff_audit_record(actor, 'user.update', target.id::text, before, after);
    END IF;
    RETURN after;
END
$fn$;
