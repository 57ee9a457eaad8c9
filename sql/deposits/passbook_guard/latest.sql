CREATE FUNCTION corebank_internal.passbook_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'passbook_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
