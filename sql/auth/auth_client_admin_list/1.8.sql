-- Every OAuth client (at most 1000, by id), or the one named by client_id
-- (CB404 when none has it), for an admin.
CREATE FUNCTION corebank.auth_client_admin_list(actor_user_id uuid, actor_session_id uuid, client_id text DEFAULT NULL)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    found_one jsonb;
BEGIN
    PERFORM corebank_internal.auth_client_admin_actor(actor_user_id, actor_session_id, ARRAY['admin']);
    IF client_id IS NULL THEN
        RETURN coalesce((SELECT jsonb_agg(corebank_internal.auth_client_admin_json(c) ORDER BY c.client_id)
                         FROM (SELECT * FROM corebank.auth_oauth_clients ORDER BY client_id LIMIT 1000) c), '[]');
    END IF;
    SELECT corebank_internal.auth_client_admin_json(c) INTO found_one
    FROM corebank.auth_oauth_clients c WHERE c.client_id = client_id;
    IF found_one IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'No OAuth client has this id');
    END IF;
    RETURN found_one;
END
$fn$;
