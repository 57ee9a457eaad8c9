-- Locks the user row first (like login and refresh), so no session is being
-- created or refreshed while the others are revoked.
CREATE OR REPLACE FUNCTION corebank.auth_password_change(user_id uuid, new_password_hash text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_present(user_id, 'user_id');
    PERFORM corebank_internal.auth_require_argon2id(new_password_hash, 'new_password_hash');
    PERFORM corebank_internal.auth_user_lock_active(user_id);
    UPDATE corebank.auth_users u SET password_hash = new_password_hash, updated_at = now() WHERE u.id = user_id;
    PERFORM corebank_internal.auth_sessions_revoke_live(user_id, 'password_change');
    PERFORM corebank_internal.audit(user_id, 'password_changed');
END
$fn$;
