-- A customer by public id; a merged customer's id gives its survivor.
CREATE FUNCTION corebank.events_customer_get(customer_id text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.events_customer_json(corebank_internal.events_canonical(events_customer_get.customer_id));
END
$fn$;
