-- 1.8: a money operation ('deposit', 'withdrawal', 'transfer', 'fee') posted
-- without an idempotency key, for callers that keep their own (standing
-- orders, an account's opening deposit); customer_initiated says whether
-- the account owner did it (dormancy, the state table).
CREATE FUNCTION corebank_internal.money_post(operation text, request jsonb, actor uuid, customer_initiated bool)
    RETURNS jsonb
    AS 'MODULE_PATHNAME', 'money_post' LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;
