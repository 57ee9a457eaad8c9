CREATE FUNCTION corebank.auth_client_lookup(client_id text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object('clientId', c.client_id, 'secretHash', c.secret_hash, 'status', c.status,
                                      'scopes', to_jsonb(c.scopes))
            FROM corebank.auth_oauth_clients c
            WHERE c.client_id = auth_client_lookup.client_id);
END
$fn$;
