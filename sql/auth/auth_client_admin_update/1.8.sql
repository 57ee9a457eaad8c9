-- An admin changes a client's scopes, audiences or name (NULL: unchanged).
-- Tokens already issued keep their scopes until they expire (900 s); the
-- next token carries the new ones. Audited with the values before and after.
CREATE FUNCTION corebank.auth_client_admin_update(actor_user_id uuid, actor_session_id uuid, client_id text,
                                                  scopes text[], audiences text[], name text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    before corebank.auth_oauth_clients;
    after corebank.auth_oauth_clients;
BEGIN
    PERFORM corebank_internal.auth_client_admin_actor(actor_user_id, actor_session_id, ARRAY['admin']);
    IF scopes IS NOT NULL AND (cardinality(scopes) > 100 OR array_ndims(scopes) > 1
       OR EXISTS (SELECT FROM unnest(scopes) AS x(scope) WHERE x.scope IS NULL OR x.scope !~ '^[!#-\[\]-~]{1,100}$')) THEN
        PERFORM corebank_internal.fail('CBV00', 'scopes: must be at most 100 scopes of 1 to 100 printable characters without spaces');
    END IF;
    PERFORM corebank_internal.auth_client_admin_check_audiences(audiences);
    IF length(name) > 200 THEN
        PERFORM corebank_internal.fail('CBV00', 'name: must be at most 200 characters');
    END IF;
    SELECT * INTO before FROM corebank.auth_oauth_clients c WHERE c.client_id = client_id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'No OAuth client has this id');
    END IF;
    UPDATE corebank.auth_oauth_clients c
    SET scopes = coalesce(scopes, c.scopes), audiences = coalesce(audiences, c.audiences),
        name = coalesce(name, c.name), updated_at = now()
    WHERE c.client_id = client_id RETURNING * INTO after;
    PERFORM corebank_internal.audit(actor_user_id, 'client_updated', jsonb_build_object(
        'clientId', client_id,
        'before', jsonb_build_object('scopes', to_jsonb(before.scopes), 'audiences', to_jsonb(before.audiences),
                                     'name', before.name),
        'after', jsonb_build_object('scopes', to_jsonb(after.scopes), 'audiences', to_jsonb(after.audiences),
                                    'name', after.name)));
    RETURN corebank_internal.auth_client_admin_json(after);
END
$fn$;
