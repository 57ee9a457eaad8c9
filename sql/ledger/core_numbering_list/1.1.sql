CREATE FUNCTION corebank.core_numbering_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_agg(corebank_internal.numbering_json(n.entity_type) ORDER BY n.entity_type)
            FROM corebank.numbering_config n);
END
$fn$;
