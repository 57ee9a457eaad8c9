CREATE FUNCTION corebank.auth_register(email text, phone text, password_hash text, first_name text,
                                       last_name text, client_id text, channel text, ip text,
                                       user_agent text, refresh_token_hash bytea) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_register'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
