CREATE FUNCTION corebank.core_customers_profile_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_customer(id);
    RETURN corebank_internal.customer_profile_json(id);
END
$fn$;
