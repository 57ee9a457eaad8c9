CREATE FUNCTION corebank.core_standing_orders_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rendered jsonb := corebank_internal.standing_order_json(id);
BEGIN
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Standing order not found');
    END IF;
    RETURN rendered;
END
$fn$;
