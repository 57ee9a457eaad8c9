-- 1.8: folds the credit stripes of up to accounts_max accounts into their
-- balance_minor (pg/credit_stripes.cpp); the maintenance pass calls it.
CREATE FUNCTION corebank_internal.account_credit_stripes_fold(accounts_max int) RETURNS int
    AS 'MODULE_PATHNAME', 'account_credit_stripes_fold' LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;
