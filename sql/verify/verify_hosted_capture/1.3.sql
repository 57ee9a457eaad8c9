CREATE FUNCTION corebank.verify_hosted_capture(session_id uuid, client_token_hash bytea, idempotency_key text,
                                               request_hash bytea, kind text, image_sealed bytea, format text,
                                               width int, height int, byte_count int, image_sha256 bytea)
    RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_hosted_capture'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
