CREATE FUNCTION corebank.parked_changes_lapse() RETURNS int
    AS 'MODULE_PATHNAME', 'parked_changes_lapse'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
