CREATE FUNCTION corebank.auth_password_reset_finish(token_hash bytea, new_password_hash text) RETURNS void
    AS 'MODULE_PATHNAME', 'auth_password_reset_finish'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
