CREATE OR REPLACE FUNCTION corebank.auth_deactivate(user_id uuid) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.auth_user_lock_active(corebank_internal.require_present(user_id, 'user_id'));
    UPDATE corebank.auth_users u SET status = 'DEACTIVATED', updated_at = now() WHERE u.id = user_id;
    PERFORM corebank_internal.auth_sessions_revoke_live(user_id, 'deactivated');
    PERFORM corebank_internal.audit(user_id, 'deactivated');
END
$fn$;
