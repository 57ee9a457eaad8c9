CREATE FUNCTION corebank_internal.gl_account_freeze() RETURNS trigger
    AS 'MODULE_PATHNAME', 'gl_account_freeze' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
