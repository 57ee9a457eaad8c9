CREATE FUNCTION corebank.verify_hosted_submit_begin(session_id uuid, client_token_hash bytea, idempotency_key text,
                                                    request_hash bytea) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_hosted_submit_begin'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
