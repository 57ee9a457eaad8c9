CREATE FUNCTION corebank.auth_ensure_signing_key() RETURNS text
    AS 'MODULE_PATHNAME', 'auth_ensure_signing_key'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
