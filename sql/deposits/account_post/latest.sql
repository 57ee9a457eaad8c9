-- Posts a ledger_post-shaped request under the account rules of the state
-- table; `rules` = {customer: [account ids the customer initiated],
-- minimumBalance: [account ids that must keep the product minimum]}.
CREATE FUNCTION corebank_internal.account_post(request jsonb, rules jsonb) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'account_post' LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;
