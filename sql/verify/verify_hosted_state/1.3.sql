CREATE FUNCTION corebank.verify_hosted_state(session_id uuid, client_token_hash bytea) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_hosted_state'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
