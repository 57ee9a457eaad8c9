-- 1.8: the rule of the money engine (core/posting_rules.hpp
-- requested_currency), for a standing order's creation: a currency the
-- request names must be the account's (CB422).
CREATE OR REPLACE FUNCTION corebank_internal.money_currency_check(request jsonb, currency text, account_number text)
    RETURNS void
    AS 'MODULE_PATHNAME', 'money_currency_check' LANGUAGE C STABLE
    SET search_path = pg_catalog, pg_temp;
