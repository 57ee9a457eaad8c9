CREATE FUNCTION corebank_internal.customer_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'customer_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
