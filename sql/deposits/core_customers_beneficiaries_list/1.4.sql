CREATE FUNCTION corebank.core_customers_beneficiaries_list(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_customer(id);
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.beneficiary_json(b) ORDER BY b.created_at, b.id), '[]'::jsonb)
            FROM corebank.beneficiaries b WHERE b.customer_id = id AND b.active);
END
$fn$;
