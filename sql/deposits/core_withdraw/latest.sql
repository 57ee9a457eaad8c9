-- 1.8: a withdrawal (WITHDRAWAL: Dr the account, Cr the cash GL, the fee and penalty GL),
-- posted by the money engine in C++
-- (extension/pg/money_posting.cpp): the same members, rules, errors and
-- idempotencyKey as POST /v1/withdrawals; the actor is the staff member or API key.
CREATE OR REPLACE FUNCTION corebank.core_withdraw(request jsonb, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'money_core_withdraw' LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
