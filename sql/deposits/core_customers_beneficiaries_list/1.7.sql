-- The customer is read first (CBV00 / CB404), then its active beneficiaries.
CREATE OR REPLACE FUNCTION corebank.core_customers_beneficiaries_list(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT (SELECT coalesce(jsonb_agg(corebank_internal.beneficiary_json(b) ORDER BY b.created_at, b.id), '[]'::jsonb)
            FROM corebank.beneficiaries b WHERE b.customer_id = c.id AND b.active)
    FROM corebank_internal.require_customer(id) c
$fn$;
