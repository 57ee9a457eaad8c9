-- RFC 7662 facts the database holds for a token whose signature the tier
-- verified. iss and scope are in the verified token; the tier adds them.
CREATE OR REPLACE FUNCTION corebank.auth_introspect(jti uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN coalesce((
        SELECT jsonb_strip_nulls(jsonb_build_object(
                   'active', true,
                   'sub', coalesce(t.user_id::text, t.client_id),
                   'iat', extract(epoch FROM t.issued_at)::bigint,
                   'exp', extract(epoch FROM t.expires_at)::bigint,
                   'jti', t.jti,
                   'token_type', CASE WHEN t.session_id IS NULL THEN 'client' ELSE 'access' END,
                   'client_id', coalesce(t.client_id, s.client_id),
                   'aud', s.audience,
                   'username', coalesce(u.email, u.phone)))
        FROM corebank.auth_access_tokens t
        LEFT JOIN corebank.auth_sessions s ON s.id = t.session_id
        LEFT JOIN corebank.auth_users u ON u.id = t.user_id
        LEFT JOIN corebank.auth_oauth_clients c ON c.client_id = t.client_id
        WHERE t.jti = auth_introspect.jti
          AND corebank_internal.auth_token_is_live(t.expires_at, t.session_id, s.revoked_at, s.expires_at,
                                                   u.status, c.status)
    ), '{"active": false}'::jsonb);
END
$fn$;
