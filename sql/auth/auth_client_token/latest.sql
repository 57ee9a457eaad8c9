CREATE FUNCTION corebank.auth_client_token(client_id text, requested_scopes text[]) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_client_token'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
