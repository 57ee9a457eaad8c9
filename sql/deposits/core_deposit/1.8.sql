-- 1.8: a deposit (DEPOSIT: Dr the cash GL, Cr the account), posted by the money engine in C++
-- (extension/pg/money_posting.cpp): the same members, rules, errors and
-- idempotencyKey as POST /v1/deposits; the actor is the staff member or API key.
CREATE OR REPLACE FUNCTION corebank.core_deposit(request jsonb, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'money_core_deposit' LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
