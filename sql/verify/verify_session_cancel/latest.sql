CREATE FUNCTION corebank.verify_session_cancel(api_key_id uuid, idempotency_key text, request_hash bytea,
                                               session_id uuid, reason text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_session_cancel'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
