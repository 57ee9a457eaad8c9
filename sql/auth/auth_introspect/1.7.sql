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
                   'client_id', coalesce(t.client_id, t.session_client_id),
                   'aud', t.session_audience,
                   'username', coalesce(t.user_email, t.user_phone)))
        FROM corebank_internal.auth_live_tokens t
        WHERE t.jti = auth_introspect.jti
    ), '{"active": false}'::jsonb);
END
$fn$;
