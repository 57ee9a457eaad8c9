CREATE FUNCTION corebank.core_customers_profile_patch(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    PERFORM corebank_internal.require_customer(id, true);
    PERFORM corebank_internal.customer_profile_apply(id, request, actor);
    RETURN corebank_internal.customer_profile_json(id);
END
$fn$;
