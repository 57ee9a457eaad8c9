CREATE FUNCTION corebank_internal.standing_order_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'standing_order_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
