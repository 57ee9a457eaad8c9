-- 1.8: a fee (FEE: Dr the account, Cr the income GL), posted by the money engine in C++
-- (extension/pg/money_posting.cpp): the same members, rules, errors and
-- idempotencyKey as POST /v1/fees; the actor is the staff member or API key.
CREATE OR REPLACE FUNCTION corebank.core_fee(request jsonb, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'money_core_fee' LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
