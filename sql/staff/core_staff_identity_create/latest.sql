-- POST /v1/staff/identities: CreateStaffIdentityRequest {email, roles,
-- username?, displayName?, branchCode?}. The identity has no password: a
-- set-password link is stored here as a reset token (token_hash, the
-- SHA-256 of the token the tier mails; the database never sees the link)
-- valid 72 hours, and followed through the reset flow (POST
-- /auth/password/reset). No second factor is enrolled here even for a role
-- of staff_mfa_roles: its secret would be shown to the creating admin; the
-- new member enrols at /auth/mfa/totp (docs/core-banking.md). Answers the
-- StaffIdentityView.
CREATE FUNCTION corebank.core_staff_identity_create(request jsonb, actor uuid, token_hash bytea) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    set_password_link_hours CONSTANT int := 72;
    new_id uuid;
    roles text[];
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    IF token_hash IS NULL OR length(token_hash) <> 32 THEN
        PERFORM corebank_internal.fail('CBV00', 'token_hash: must be 32 bytes');
    END IF;
    IF jsonb_typeof(request -> 'roles') IS DISTINCT FROM 'array'
       OR EXISTS (SELECT FROM jsonb_array_elements(request -> 'roles') AS x(r) WHERE jsonb_typeof(x.r) <> 'string') THEN
        PERFORM corebank_internal.fail('CBV00', 'roles: must be an array of role keys');
    END IF;
    IF jsonb_array_length(request -> 'roles') > 32 THEN
        PERFORM corebank_internal.fail('CBV00', 'roles: must be at most 32 role keys');
    END IF;
    roles := ARRAY(SELECT jsonb_array_elements_text(request -> 'roles'));
    IF corebank_internal.json_text(request, 'email', 254) IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'email: is required');
    END IF;
    new_id := corebank_internal.staff_identity_insert(
        lower(corebank_internal.json_text(request, 'username', 254)), corebank_internal.json_text(request, 'email', 254),
        NULL, NULL, NULL, NULL, corebank_internal.json_text(request, 'displayName', 100), roles,
        corebank_internal.json_text(request, 'branchCode', 20), actor);
    INSERT INTO corebank.auth_reset_tokens (token_hash, user_id, created_at, expires_at)
    VALUES (token_hash, new_id, now(), now() + make_interval(hours => set_password_link_hours));
    PERFORM corebank_internal.audit(new_id, 'reset_requested', jsonb_build_object('by', actor, 'setPassword', true));
    RETURN corebank_internal.staff_identity_json(new_id)
           || jsonb_build_object('setPasswordLinkHours', set_password_link_hours);
END
$fn$;
