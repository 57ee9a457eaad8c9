-- The API key check of the tier's cache miss (docs/design/hot-path.md):
-- core_api_key_authenticate's answer without counting the request or
-- stamping last_used_at (the tier counts locally and flushes with
-- core_api_key_usage_flush), plus the key's global count in the current
-- minute so that the tier starts from it. NULL for an unknown, revoked or
-- expired key (or a key of another service).
CREATE FUNCTION corebank.core_api_key_verify(key_hash bytea, service text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    k record;
    window_at timestamptz := date_trunc('minute', now());
BEGIN
    IF core_api_key_verify.key_hash IS NULL OR length(core_api_key_verify.key_hash) <> 32 THEN
        RETURN NULL;
    END IF;
    SELECT a.id, a.scopes, a.caller_id, a.rate_limit_per_minute, a.name INTO k
    FROM corebank.api_keys a
    WHERE a.key_hash = core_api_key_verify.key_hash AND a.service = core_api_key_verify.service
      AND a.status = 'ACTIVE' AND (a.expires_at IS NULL OR a.expires_at > now());
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    RETURN jsonb_build_object('id', k.id, 'name', k.name, 'scopes', to_jsonb(k.scopes), 'callerId', k.caller_id,
                              'rateLimitPerMinute', k.rate_limit_per_minute,
                              'windowStartS', extract(epoch FROM window_at)::bigint,
                              'windowHits', coalesce((SELECT sum(c.hits) FROM corebank.api_key_rate_counters c
                                                      WHERE c.api_key_id = k.id AND c.window_start = window_at), 0));
END
$fn$;
