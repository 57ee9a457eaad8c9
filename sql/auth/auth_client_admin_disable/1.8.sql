-- An admin disables a client: it gets no new token (its secret, old or new,
-- answers 401), its client tokens stop at once (auth_live_tokens reads the
-- status; the hot path hears of it) and clientId naming it is refused at
-- login and registration. Not reversible over HTTP: a new client is made
-- instead, as the secret may be why it was disabled. Disabling a disabled
-- client is 409.
CREATE FUNCTION corebank.auth_client_admin_disable(actor_user_id uuid, actor_session_id uuid, client_id text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    was text;
    after corebank.auth_oauth_clients;
BEGIN
    PERFORM corebank_internal.auth_client_admin_actor(actor_user_id, actor_session_id, ARRAY['admin']);
    SELECT c.status INTO was FROM corebank.auth_oauth_clients c WHERE c.client_id = client_id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'No OAuth client has this id');
    END IF;
    IF was = 'DISABLED' THEN
        PERFORM corebank_internal.fail('CB409', 'The client is already disabled');
    END IF;
    UPDATE corebank.auth_oauth_clients c
    SET status = 'DISABLED', previous_secret_hash = NULL, previous_secret_expires_at = NULL, updated_at = now()
    WHERE c.client_id = client_id RETURNING * INTO after;
    PERFORM corebank_internal.audit(actor_user_id, 'client_disabled', jsonb_build_object('clientId', client_id));
    RETURN corebank_internal.auth_client_admin_json(after);
END
$fn$;
