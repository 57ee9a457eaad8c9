-- Rotation (docs/core-banking.md, API keys): a new key with the old one's
-- service, scopes, caller, rate limit, name and expiry, linked by
-- rotated_from; the old key stays valid for overlap_seconds (NULL: 86400;
-- 0 to 2592000) unless it expires sooner, so clients move without a failed
-- request. The tier generates the key and passes only its SHA-256 and
-- prefix, as for core_api_key_create. service NULL matches any service (the
-- CLI); the HTTP API passes 'core'. Refused: unknown id (or another
-- service's) 404; a revoked or expired key, or one whose successor is still
-- valid, 409 (rotate the successor instead: one chain, no forks). Answers
-- the new key, with the old one as `previous`. Audited on both keys.
CREATE FUNCTION corebank.core_api_key_rotate(id uuid, service text, overlap_seconds int, key_hash bytea,
                                             key_prefix text, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    overlap_max CONSTANT int := 2592000;
    old record;
    old_before jsonb;
    new_id uuid;
    old_until timestamptz;
BEGIN
    PERFORM corebank_internal.require_present(id, 'id');
    IF overlap_seconds IS NOT NULL AND overlap_seconds NOT BETWEEN 0 AND overlap_max THEN
        PERFORM corebank_internal.fail('CBV00', format('overlapSeconds: must be from 0 to %s', overlap_max));
    END IF;
    IF key_hash IS NULL OR length(key_hash) <> 32 THEN
        PERFORM corebank_internal.fail('CBV00', 'key_hash: must be a SHA-256 hash (32 bytes)');
    END IF;
    IF key_prefix IS NULL OR key_prefix !~ '^[A-Za-z0-9_-]{1,16}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'key_prefix: must be 1 to 16 of A-Z a-z 0-9 _ -');
    END IF;
    SELECT k.* INTO old FROM corebank.api_keys k
    WHERE k.id = id AND (service IS NULL OR k.service = service) FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'API key not found');
    END IF;
    IF old.status = 'REVOKED' THEN
        PERFORM corebank_internal.fail('CB409', 'API key is revoked: create a new key instead');
    END IF;
    IF old.expires_at <= now() THEN
        PERFORM corebank_internal.fail('CB409', 'API key has expired: create a new key instead');
    END IF;
    IF EXISTS (SELECT FROM corebank.api_keys s
               WHERE s.rotated_from = id AND s.status = 'ACTIVE' AND (s.expires_at IS NULL OR s.expires_at > now())) THEN
        PERFORM corebank_internal.fail('CB409', 'API key has already been rotated: rotate its successor instead');
    END IF;
    old_before := corebank_internal.api_key_json(id);
    INSERT INTO corebank.api_keys AS k (service, name, key_hash, key_prefix, scopes, caller_id,
                                        rate_limit_per_minute, created_by, expires_at, rotated_from)
    VALUES (old.service, old.name, key_hash, key_prefix, old.scopes, old.caller_id,
            old.rate_limit_per_minute, actor, old.expires_at, id)
    ON CONFLICT DO NOTHING
    RETURNING k.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'An API key with this hash already exists');
    END IF;
    old_until := now() + make_interval(secs => coalesce(overlap_seconds, 86400));
    IF old.expires_at IS NULL OR old.expires_at > old_until THEN
        UPDATE corebank.api_keys k SET expires_at = old_until WHERE k.id = id;
    END IF;
    PERFORM corebank_internal.api_key_event_record(new_id, 'CREATED', actor, NULL, corebank_internal.api_key_json(new_id));
    PERFORM corebank_internal.api_key_event_record(id, 'ROTATED', actor, old_before, corebank_internal.api_key_json(id));
    RETURN corebank_internal.api_key_json(new_id) || jsonb_build_object('previous', corebank_internal.api_key_json(id));
END
$fn$;
