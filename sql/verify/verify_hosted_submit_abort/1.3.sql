CREATE FUNCTION corebank.verify_hosted_submit_abort(session_id uuid, client_token_hash bytea, idempotency_key text,
                                                    error text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_hosted_submit_abort'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
