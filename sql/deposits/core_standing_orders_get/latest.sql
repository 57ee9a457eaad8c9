CREATE OR REPLACE FUNCTION corebank.core_standing_orders_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.standing_order_json(id), 'Standing order not found')
$fn$;
