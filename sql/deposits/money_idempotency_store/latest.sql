CREATE FUNCTION corebank_internal.money_idempotency_store(key text, transaction_id uuid, response jsonb) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'money_idempotency_store' LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;
