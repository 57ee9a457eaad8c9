CREATE FUNCTION corebank.verify_session_create(api_key_id uuid, idempotency_key text, request_hash bytea,
                                               session_id uuid, flow text, reference text, subject_sealed bytea,
                                               subject_lookup bytea, redirect_url text, metadata jsonb,
                                               client_token_hash bytea, client_token_sealed bytea,
                                               lifetime_s int, client_token_ttl_s int) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_session_create'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
