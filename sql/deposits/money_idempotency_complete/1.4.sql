CREATE FUNCTION corebank_internal.money_idempotency_complete(key text, transaction_id uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'money_idempotency_complete' LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;
