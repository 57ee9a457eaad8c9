-- Hot path, once per request of every service. NULL for an unknown, revoked
-- or expired key (or a key of another service). Counts the request in the
-- current minute: each backend adds to its own stripe (pid % 8), and the
-- limit applies to the sum of the stripes, so it holds across tier processes
-- without every request waiting on one counter row. last_used_at is written
-- at most once a minute per key for the same reason.
CREATE OR REPLACE FUNCTION corebank.core_api_key_authenticate(key_hash bytea, service text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    stripes CONSTANT int := 8;
    k record;
    window_at timestamptz := date_trunc('minute', now());
    my_stripe smallint := (pg_backend_pid() % stripes)::smallint;
    hits bigint;
BEGIN
    IF core_api_key_authenticate.key_hash IS NULL OR length(core_api_key_authenticate.key_hash) <> 32 THEN
        RETURN NULL;
    END IF;
    SELECT a.id, a.scopes, a.caller_id, a.rate_limit_per_minute, a.last_used_at, a.name INTO k
    FROM corebank.api_keys a
    WHERE a.key_hash = core_api_key_authenticate.key_hash AND a.service = core_api_key_authenticate.service
      AND a.status = 'ACTIVE' AND (a.expires_at IS NULL OR a.expires_at > now());
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    WITH hit AS (
        INSERT INTO corebank.api_key_rate_counters AS c (api_key_id, window_start, stripe, hits)
        VALUES (k.id, window_at, my_stripe, 1)
        ON CONFLICT (api_key_id, window_start, stripe) DO UPDATE SET hits = least(c.hits, 2147483646) + 1
        RETURNING c.hits
    )
    SELECT hit.hits + coalesce((SELECT sum(c.hits) FROM corebank.api_key_rate_counters c
                                WHERE c.api_key_id = k.id AND c.window_start = window_at AND c.stripe <> my_stripe), 0)
    INTO hits
    FROM hit;
    IF k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute' THEN
        UPDATE corebank.api_keys a SET last_used_at = now()
        WHERE a.id = k.id AND (a.last_used_at IS NULL OR a.last_used_at < now() - interval '1 minute');
    END IF;
    RETURN jsonb_build_object('id', k.id, 'name', k.name, 'scopes', to_jsonb(k.scopes), 'callerId', k.caller_id,
                              'rateLimitPerMinute', k.rate_limit_per_minute,
                              'allowed', hits <= k.rate_limit_per_minute);
END
$fn$;
