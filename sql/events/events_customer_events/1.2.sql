-- A customer's events, oldest occurredAt first: {customerId, items, nextCursor}.
CREATE FUNCTION corebank.events_customer_events(customer_id text, after_micros bigint, after_id bigint,
                                                page_size int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    page_size_max CONSTANT int := 500;
    customer uuid := corebank_internal.events_canonical(customer_id);
BEGIN
    IF page_size IS NULL OR page_size NOT BETWEEN 1 AND page_size_max THEN
        PERFORM corebank_internal.fail('CBV00', format('limit: must be from 1 to %s', page_size_max));
    END IF;
    IF customer IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN jsonb_build_object('customerId', (SELECT c.public_id FROM corebank.customers_graph c WHERE c.id = customer))
           || corebank_internal.events_page(customer, after_micros, after_id, page_size);
END
$fn$;
