-- Idempotency of the money functions (scope core.money): NULL when the key
-- is new (now claimed), the stored response on a repeat, CB409 when the key
-- was used for another request.
CREATE FUNCTION corebank_internal.money_idempotency_claim(key text, request jsonb) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'money_idempotency_claim' LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;
