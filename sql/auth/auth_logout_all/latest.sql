CREATE OR REPLACE FUNCTION corebank.auth_logout_all(user_id uuid) RETURNS int
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    revoked int;
BEGIN
    PERFORM corebank_internal.require_present(user_id, 'user_id');
    PERFORM FROM corebank.auth_users u WHERE u.id = user_id FOR UPDATE;
    revoked := corebank_internal.auth_sessions_revoke_live(user_id, 'logout_all');
    PERFORM corebank_internal.audit(user_id, 'logout_all', jsonb_build_object('revoked', revoked));
    RETURN revoked;
END
$fn$;
