-- An admin creates a client through the function ./corebank client create
-- calls (auth_client_create: the same checks, the same row), then sets its
-- audiences and audits the creation. The tier generated the secret and
-- sends only its argon2id hash.
CREATE FUNCTION corebank.auth_client_admin_create(actor_user_id uuid, actor_session_id uuid, client_id text,
                                                  secret_hash text, scopes text[], audiences text[], name text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    created corebank.auth_oauth_clients;
BEGIN
    PERFORM corebank_internal.auth_client_admin_actor(actor_user_id, actor_session_id, ARRAY['admin']);
    PERFORM corebank_internal.auth_client_admin_check_audiences(audiences);
    PERFORM corebank.auth_client_create(client_id, secret_hash, scopes, name, NULL, NULL);
    UPDATE corebank.auth_oauth_clients c SET audiences = coalesce(audiences, '{}')
    WHERE c.client_id = client_id RETURNING * INTO created;
    PERFORM corebank_internal.audit(actor_user_id, 'client_created',
        jsonb_build_object('clientId', client_id, 'scopes', to_jsonb(created.scopes),
                           'audiences', to_jsonb(created.audiences)));
    RETURN corebank_internal.auth_client_admin_json(created);
END
$fn$;
