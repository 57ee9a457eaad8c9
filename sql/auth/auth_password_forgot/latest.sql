CREATE FUNCTION corebank.auth_password_forgot(email text, client_id text, ip text, token_hash bytea)
    RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_password_forgot'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
