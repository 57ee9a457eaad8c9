-- Locks the user row first (like login and refresh), so no session is being
-- created or refreshed while the others are revoked.
CREATE OR REPLACE FUNCTION corebank.auth_password_change(user_id uuid, new_password_hash text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF user_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'user_id: is required');
    END IF;
    IF new_password_hash IS NULL OR new_password_hash NOT LIKE '$argon2id$%' OR length(new_password_hash) > 512 THEN
        PERFORM corebank_internal.fail('CBV00', 'new_password_hash: must be an argon2id encoded hash');
    END IF;
    UPDATE corebank.auth_users u
    SET password_hash = new_password_hash, updated_at = now()
    WHERE u.id = user_id AND u.status = 'ACTIVE';
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CBU01', 'Account is not active');
    END IF;
    PERFORM corebank_internal.auth_sessions_revoke_live(user_id, 'password_change');
    PERFORM corebank_internal.audit(user_id, 'password_changed');
END
$fn$;
