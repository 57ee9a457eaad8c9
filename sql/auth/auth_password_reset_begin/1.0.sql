CREATE FUNCTION corebank.auth_password_reset_begin(token_hash bytea) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_password_reset_begin'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
