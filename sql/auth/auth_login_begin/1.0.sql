CREATE FUNCTION corebank.auth_login_begin(identifier_kind text, identifier text, client_id text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_login_begin'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
