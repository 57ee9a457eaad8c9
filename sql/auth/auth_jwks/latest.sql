CREATE FUNCTION corebank.auth_jwks() RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_jwks'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
