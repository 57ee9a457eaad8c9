CREATE FUNCTION corebank.auth_logout_all(user_id uuid) RETURNS int
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    revoked int;
BEGIN
    IF user_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'user_id: is required');
    END IF;
    PERFORM FROM corebank.auth_users u WHERE u.id = user_id FOR UPDATE;
    UPDATE corebank.auth_sessions s
    SET revoked_at = now(), revoked_reason = 'logout_all'
    WHERE s.user_id = user_id AND s.revoked_at IS NULL AND s.expires_at > now();
    GET DIAGNOSTICS revoked = ROW_COUNT;
    PERFORM corebank_internal.audit(user_id, 'logout_all', jsonb_build_object('revoked', revoked));
    RETURN revoked;
END
$fn$;
