CREATE FUNCTION corebank_internal.deposit_product_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'deposit_product_guard' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
