CREATE FUNCTION corebank.core_customers_beneficial_owners_list(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_customer(id);
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.beneficial_owner_json(o) ORDER BY o.created_at, o.id), '[]'::jsonb)
            FROM corebank.beneficial_owners o WHERE o.customer_id = id AND o.active);
END
$fn$;
