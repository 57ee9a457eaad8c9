CREATE FUNCTION corebank.verify_hosted_submit_finish(session_id uuid, client_token_hash bytea, idempotency_key text,
                                                     provider text, checks jsonb) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_hosted_submit_finish'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
