CREATE FUNCTION corebank.core_standing_orders_pause(id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.standing_order_move(id, ARRAY['ACTIVE'], 'PAUSED', actor, 'pause');
END
$fn$;
