CREATE FUNCTION corebank.events_customer_consents(customer_id text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    customer uuid := corebank_internal.events_canonical(customer_id);
BEGIN
    IF customer IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN jsonb_build_object('customerId', (SELECT c.public_id FROM corebank.customers_graph c WHERE c.id = customer),
                              'consents', corebank_internal.events_consents_json(customer));
END
$fn$;
