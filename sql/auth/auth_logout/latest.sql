CREATE FUNCTION corebank.auth_logout(user_id uuid, session_id uuid) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF user_id IS NULL OR session_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'user_id, session_id: are required');
    END IF;
    PERFORM FROM corebank.auth_users u WHERE u.id = user_id FOR UPDATE;
    PERFORM FROM corebank.auth_sessions s WHERE s.id = session_id AND s.user_id = user_id;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Session not found');
    END IF;
    UPDATE corebank.auth_sessions s
    SET revoked_at = now(), revoked_reason = 'logout'
    WHERE s.id = session_id AND s.revoked_at IS NULL;
    IF FOUND THEN
        PERFORM corebank_internal.audit(user_id, 'logout', jsonb_build_object('sessionId', session_id));
    END IF;
END
$fn$;
