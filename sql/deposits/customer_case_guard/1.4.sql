CREATE FUNCTION corebank_internal.customer_case_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'customer_case_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
