CREATE OR REPLACE FUNCTION corebank.core_customers_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$ SELECT corebank_internal.customer_json(c.id) FROM corebank_internal.require_customer(id) c $fn$;
