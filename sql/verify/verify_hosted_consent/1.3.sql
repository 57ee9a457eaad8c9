CREATE FUNCTION corebank.verify_hosted_consent(session_id uuid, client_token_hash bytea, idempotency_key text,
                                               request_hash bytea, granted bool, version text, text_sha256 bytea,
                                               ip text, user_agent text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_hosted_consent'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
