-- 1.8: a transfer (TRANSFER: Dr from, Cr to; across currencies through the FX position GL 2900),
-- posted by the money engine in C++
-- (extension/pg/money_posting.cpp): the same members, rules, errors and
-- idempotencyKey as POST /v1/transfers; the actor is the staff member or API key.
CREATE OR REPLACE FUNCTION corebank.core_transfer(request jsonb, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'money_core_transfer' LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
