-- The first half of a secret rotation: the current hash's argon2id
-- parameters and salt ({"m","t","p","salt"}, never the hash), which the new
-- secret's hash must share so that one proof (auth_client_auth_finish)
-- tests both secrets during the overlap.
CREATE FUNCTION corebank.auth_client_admin_rotate_begin(actor_user_id uuid, actor_session_id uuid, client_id text)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    parts text[];
BEGIN
    PERFORM corebank_internal.auth_client_admin_actor(actor_user_id, actor_session_id, ARRAY['admin']);
    SELECT regexp_match(c.secret_hash, '^\$argon2id\$v=19\$m=([0-9]{1,7}),t=([0-9]{1,2}),p=([0-9]{1,2})\$([A-Za-z0-9+/]{11,86})\$[A-Za-z0-9+/]+$')
    INTO parts FROM corebank.auth_oauth_clients c WHERE c.client_id = client_id;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'No OAuth client has this id');
    END IF;
    IF parts IS NULL THEN
        PERFORM corebank_internal.fail('CB422', 'The client''s stored secret hash is not one this server rotates');
    END IF;
    RETURN jsonb_build_object('m', parts[1]::int, 't', parts[2]::int, 'p', parts[3]::int, 'salt', parts[4]);
END
$fn$;
