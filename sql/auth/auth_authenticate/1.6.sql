-- The bearer check on every call: live session and ACTIVE user (or ACTIVE
-- client for client tokens), unexpired token. One primary-key lookup and
-- two primary-key joins.
CREATE OR REPLACE FUNCTION corebank.auth_authenticate(jti uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN coalesce((
        SELECT jsonb_build_object('active', true, 'userId', t.user_id, 'sessionId', t.session_id,
                                  'clientId', coalesce(t.client_id, s.client_id))
        FROM corebank.auth_access_tokens t
        LEFT JOIN corebank.auth_sessions s ON s.id = t.session_id
        LEFT JOIN corebank.auth_users u ON u.id = t.user_id
        LEFT JOIN corebank.auth_oauth_clients c ON c.client_id = t.client_id
        WHERE t.jti = auth_authenticate.jti
          AND corebank_internal.auth_token_is_live(t.expires_at, t.session_id, s.revoked_at, s.expires_at,
                                                   u.status, c.status)
    ), '{"active": false}'::jsonb);
END
$fn$;
