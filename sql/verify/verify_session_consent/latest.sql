CREATE FUNCTION corebank.verify_session_consent(api_key_id uuid, idempotency_key text, request_hash bytea,
                                                session_id uuid, granted bool, version text, text_sha256 bytea,
                                                ip text, user_agent text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_session_consent'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
