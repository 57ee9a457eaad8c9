-- The tier generates the key and passes only its SHA-256 and a short
-- display prefix. actor may be NULL (the first key, made by the CLI). The
-- limit defaults to limit_api_key_requests_per_minute_default() (core/limits.hpp).
-- Audited (api_key_events, CREATED).
CREATE OR REPLACE FUNCTION corebank.core_api_key_create(service text, name text, scopes text[], caller_id text,
                                             rate_limit_per_minute int, key_hash bytea, key_prefix text,
                                             actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    clean_name text := nullif(btrim(name), '');
    clean_scopes text[];
    new_id uuid;
BEGIN
    IF service IS NULL OR service NOT IN ('core', 'events', 'verify') THEN
        PERFORM corebank_internal.fail('CBV00', 'service: must be core, events or verify');
    END IF;
    IF length(clean_name) > 100 THEN
        PERFORM corebank_internal.fail('CBV00', 'name: must be at most 100 characters');
    END IF;
    IF scopes IS NULL OR cardinality(scopes) NOT BETWEEN 1 AND 20 OR array_ndims(scopes) > 1
       OR EXISTS (SELECT FROM unnest(scopes) AS s(scope) WHERE s.scope IS NULL OR s.scope !~ '^[a-z][a-z0-9:_.-]{0,49}$') THEN
        PERFORM corebank_internal.fail('CBV00', 'scopes: must be 1 to 20 scope names such as read, write, admin');
    END IF;
    IF caller_id IS NOT NULL AND caller_id !~ '^[A-Za-z0-9._:-]{1,100}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'callerId: must be 1 to 100 of A-Z a-z 0-9 . _ : -');
    END IF;
    IF service = 'events' AND caller_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'callerId: is required for an events key');
    END IF;
    IF rate_limit_per_minute IS NOT NULL AND rate_limit_per_minute NOT BETWEEN 1 AND corebank_internal.limit_api_key_requests_per_minute_max() THEN
        PERFORM corebank_internal.fail('CBV00', format('rateLimitPerMinute: must be from 1 to %s', corebank_internal.limit_api_key_requests_per_minute_max()));
    END IF;
    IF key_hash IS NULL OR length(key_hash) <> 32 THEN
        PERFORM corebank_internal.fail('CBV00', 'key_hash: must be a SHA-256 hash (32 bytes)');
    END IF;
    IF key_prefix IS NULL OR key_prefix !~ '^[A-Za-z0-9_-]{1,16}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'key_prefix: must be 1 to 16 of A-Z a-z 0-9 _ -');
    END IF;
    clean_scopes := ARRAY(SELECT DISTINCT s.scope FROM unnest(scopes) AS s(scope) ORDER BY 1);
    INSERT INTO corebank.api_keys AS k (service, name, key_hash, key_prefix, scopes, caller_id,
                                        rate_limit_per_minute, created_by)
    VALUES (service, clean_name, key_hash, key_prefix, clean_scopes, caller_id,
            coalesce(rate_limit_per_minute, corebank_internal.limit_api_key_requests_per_minute_default()), actor)
    ON CONFLICT DO NOTHING
    RETURNING k.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'An API key with this hash already exists');
    END IF;
    PERFORM corebank_internal.api_key_event_record(new_id, 'CREATED', actor, NULL, corebank_internal.api_key_json(new_id));
    RETURN corebank_internal.api_key_json(new_id);
END
$fn$;
