CREATE FUNCTION corebank.auth_sessions_list(user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('id', s.id, 'channel', s.channel, 'ip', s.ip,
                                                         'userAgent', s.user_agent, 'audience', s.audience,
                                                         'createdAt', s.created_at, 'lastUsedAt', s.last_used_at,
                                                         'expiresAt', s.expires_at)
                                      ORDER BY s.created_at DESC, s.id DESC), '[]'::jsonb)
            FROM corebank.auth_sessions s
            WHERE s.user_id = auth_sessions_list.user_id AND s.revoked_at IS NULL AND s.expires_at > now());
END
$fn$;
