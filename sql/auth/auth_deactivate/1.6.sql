CREATE OR REPLACE FUNCTION corebank.auth_deactivate(user_id uuid) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF user_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'user_id: is required');
    END IF;
    UPDATE corebank.auth_users u
    SET status = 'DEACTIVATED', updated_at = now()
    WHERE u.id = user_id AND u.status = 'ACTIVE';
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CBU01', 'Account is not active');
    END IF;
    PERFORM corebank_internal.auth_sessions_revoke_live(user_id, 'deactivated');
    PERFORM corebank_internal.audit(user_id, 'deactivated');
END
$fn$;
