CREATE FUNCTION corebank.core_branches_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.branch_json(b.id) ORDER BY NOT b.is_head_office, b.code), '[]'::jsonb)
            FROM corebank.branches b);
END
$fn$;
