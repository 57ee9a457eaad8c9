CREATE FUNCTION corebank.core_customers_interactions_list(id uuid, page int, size int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    bounds int[] := corebank_internal.page_bounds(page, size);
    total bigint;
    content jsonb;
BEGIN
    PERFORM corebank_internal.require_customer(id);
    SELECT count(*) INTO total FROM corebank.customer_interactions i WHERE i.customer_id = id;
    SELECT jsonb_agg(corebank_internal.interaction_json(x) ORDER BY x.recorded_at DESC, x.id) INTO content
    FROM (SELECT * FROM corebank.customer_interactions i WHERE i.customer_id = id
          ORDER BY i.recorded_at DESC, i.id LIMIT bounds[2] OFFSET bounds[1]::bigint * bounds[2]) x;
    RETURN corebank_internal.page_json(content, bounds[1], bounds[2], total);
END
$fn$;
