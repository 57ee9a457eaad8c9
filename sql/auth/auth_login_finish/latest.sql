CREATE FUNCTION corebank.auth_login_finish(user_id uuid, password_ok bool, client_id text, channel text,
                                           ip text, user_agent text, refresh_token_hash bytea) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_login_finish'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
