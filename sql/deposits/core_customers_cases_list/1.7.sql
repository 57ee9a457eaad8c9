-- The customer is read first (CBV00 / CB404), then its 1000 newest cases.
CREATE OR REPLACE FUNCTION corebank.core_customers_cases_list(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT (SELECT coalesce(jsonb_agg(corebank_internal.case_json(k) ORDER BY k.opened_at DESC, k.id), '[]'::jsonb)
            FROM (SELECT * FROM corebank.customer_cases x WHERE x.customer_id = c.id
                  ORDER BY x.opened_at DESC, x.id LIMIT 1000) k)
    FROM corebank_internal.require_customer(id) c
$fn$;
