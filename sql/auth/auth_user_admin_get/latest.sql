-- GET /admin/users/{id}: one user as auth_me shows it (the user object, its
-- status, creation time and branch), for staff whose current roles include
-- admin or compliance_officer (a role of staff_mfa_roles signed in with a
-- second factor: auth_client_admin_actor). The receiver of an identity
-- webhook, whose payload names only the user's id, reads the state here
-- (docs/identity.md, "Outbound events"). Refused: the caller (CB403), no
-- such user (CB404).
CREATE FUNCTION corebank.auth_user_admin_get(actor_user_id uuid, actor_session_id uuid, user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    PERFORM corebank_internal.auth_client_admin_actor(actor_user_id, actor_session_id,
                                                      ARRAY['admin', 'compliance_officer']);
    PERFORM corebank_internal.require_present(user_id, 'user_id');
    RETURN corebank.auth_me(user_id);
END
$fn$;
