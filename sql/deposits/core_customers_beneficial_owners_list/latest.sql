-- The customer is read first (CBV00 / CB404), then its active owners.
CREATE OR REPLACE FUNCTION corebank.core_customers_beneficial_owners_list(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT (SELECT coalesce(jsonb_agg(corebank_internal.beneficial_owner_json(o) ORDER BY o.created_at, o.id), '[]'::jsonb)
            FROM corebank.beneficial_owners o WHERE o.customer_id = c.id AND o.active)
    FROM corebank_internal.require_customer(id) c
$fn$;
