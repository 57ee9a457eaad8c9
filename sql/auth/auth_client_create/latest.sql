CREATE OR REPLACE FUNCTION corebank.auth_client_create(client_id text, secret_hash text, scopes text[], name text,
                                                       reset_link_base text, app_name text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    created jsonb;
BEGIN
    IF client_id IS NULL OR client_id !~ '^[A-Za-z0-9._-]{1,100}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'client_id: must be 1 to 100 of A-Z a-z 0-9 . _ -');
    END IF;
    PERFORM corebank_internal.auth_require_argon2id(secret_hash, 'secret_hash');
    IF scopes IS NULL OR cardinality(scopes) > 100 OR array_ndims(scopes) > 1
       OR EXISTS (SELECT FROM unnest(scopes) AS x(scope) WHERE x.scope IS NULL OR x.scope !~ '^[!#-\[\]-~]{1,100}$') THEN
        PERFORM corebank_internal.fail('CBV00', 'scopes: must be at most 100 scopes of 1 to 100 printable characters without spaces');
    END IF;
    IF length(name) > 200 THEN
        PERFORM corebank_internal.fail('CBV00', 'name: must be at most 200 characters');
    END IF;
    IF reset_link_base IS NOT NULL AND (reset_link_base !~ '^https?://' OR length(reset_link_base) > 2048) THEN
        PERFORM corebank_internal.fail('CBV00', 'reset_link_base: must be an http(s) URL of at most 2048 characters');
    END IF;
    IF length(app_name) > 100 THEN
        PERFORM corebank_internal.fail('CBV00', 'app_name: must be at most 100 characters');
    END IF;

    INSERT INTO corebank.auth_oauth_clients AS c (client_id, secret_hash, name, status, scopes, reset_link_base, app_name)
    VALUES (client_id, secret_hash, name, 'ACTIVE', coalesce(scopes, '{}'), reset_link_base, app_name)
    ON CONFLICT DO NOTHING
    RETURNING jsonb_build_object('clientId', c.client_id, 'name', c.name, 'status', c.status,
                                 'scopes', to_jsonb(c.scopes), 'resetLinkBase', c.reset_link_base,
                                 'appName', c.app_name, 'createdAt', c.created_at)
    INTO created;
    IF created IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'An OAuth client with this id already exists');
    END IF;
    RETURN created;
END
$fn$;
