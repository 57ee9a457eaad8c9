CREATE OR REPLACE FUNCTION corebank.next_number(entity_type text) RETURNS text
    AS 'MODULE_PATHNAME', 'numbering_next'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
