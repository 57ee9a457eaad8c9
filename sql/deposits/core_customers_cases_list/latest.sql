CREATE FUNCTION corebank.core_customers_cases_list(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_customer(id);
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.case_json(k) ORDER BY k.opened_at DESC, k.id), '[]'::jsonb)
            FROM (SELECT * FROM corebank.customer_cases x WHERE x.customer_id = id
                  ORDER BY x.opened_at DESC, x.id LIMIT 1000) k);
END
$fn$;
