CREATE FUNCTION corebank.auth_refresh(refresh_token_hash bytea, new_refresh_token_hash bytea, ip text,
                                      user_agent text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_refresh'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
