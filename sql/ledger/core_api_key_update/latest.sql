-- PUT /v1/api-keys/{id}: a new name, rate limit and/or expiry. A NULL
-- argument keeps the value, except that set_expiry = true sets expires_at to
-- expires_at, NULL included (no expiry). Refused: nothing to change or a
-- value out of range 400 (CBV00); unknown id (or another service's) 404; a
-- revoked or expired key 409 (an expiry is not lifted after the fact: a
-- rotation's overlap stays ended); an expiry not in the future, or one that
-- would leave no active admin key (api_key_last_admin_guard), 422. The
-- row's update trigger tells every tier process to drop its cached answer.
-- Audited (UPDATED) when something changed.
CREATE FUNCTION corebank.core_api_key_update(id uuid, service text, name text, rate_limit_per_minute int,
                                             set_expiry boolean, expires_at timestamptz, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    expiry_max CONSTANT interval := interval '10 years';
    clean_name text := btrim(name);
    old record;
    before jsonb;
    after jsonb;
BEGIN
    PERFORM corebank_internal.require_present(id, 'id');
    IF name IS NULL AND rate_limit_per_minute IS NULL AND NOT coalesce(set_expiry, false) THEN
        PERFORM corebank_internal.fail('CBV00', 'body: give at least one of name, rateLimitPerMinute, expiresAt');
    END IF;
    IF name IS NOT NULL AND length(clean_name) NOT BETWEEN 1 AND 100 THEN
        PERFORM corebank_internal.fail('CBV00', 'name: must be 1 to 100 characters');
    END IF;
    IF rate_limit_per_minute IS NOT NULL AND rate_limit_per_minute NOT BETWEEN 1 AND corebank_internal.limit_api_key_requests_per_minute_max() THEN
        PERFORM corebank_internal.fail('CBV00', format('rateLimitPerMinute: must be from 1 to %s', corebank_internal.limit_api_key_requests_per_minute_max()));
    END IF;
    IF set_expiry AND expires_at > now() + expiry_max THEN
        PERFORM corebank_internal.fail('CBV00', 'expiresAt: must be at most 10 years ahead');
    END IF;
    SELECT k.* INTO old FROM corebank.api_keys k
    WHERE k.id = id AND (service IS NULL OR k.service = service) FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'API key not found');
    END IF;
    IF old.status = 'REVOKED' THEN
        PERFORM corebank_internal.fail('CB409', 'API key is revoked');
    END IF;
    IF old.expires_at <= now() THEN
        PERFORM corebank_internal.fail('CB409', 'API key has expired');
    END IF;
    IF set_expiry AND expires_at <= now() THEN
        PERFORM corebank_internal.fail('CB422', 'expiresAt: must be in the future (revoke the key to stop it now)');
    END IF;
    IF set_expiry AND expires_at IS NOT NULL AND (old.expires_at IS NULL OR expires_at < old.expires_at) THEN
        PERFORM corebank_internal.api_key_last_admin_guard(id, expires_at);
    END IF;
    before := corebank_internal.api_key_json(id);
    UPDATE corebank.api_keys k
    SET name = coalesce(clean_name, k.name),
        rate_limit_per_minute = coalesce(rate_limit_per_minute, k.rate_limit_per_minute),
        expires_at = CASE WHEN set_expiry THEN expires_at ELSE k.expires_at END
    WHERE k.id = id;
    after := corebank_internal.api_key_json(id);
    IF after IS DISTINCT FROM before THEN
        PERFORM corebank_internal.api_key_event_record(id, 'UPDATED', actor, before, after);
    END IF;
    RETURN after;
END
$fn$;
