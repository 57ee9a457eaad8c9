CREATE FUNCTION corebank_internal.gl_account_mirror() RETURNS trigger
    AS 'MODULE_PATHNAME', 'gl_account_mirror' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
