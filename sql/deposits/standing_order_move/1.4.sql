CREATE FUNCTION corebank_internal.standing_order_move(order_id uuid, allowed text[], to_status text, actor uuid,
                                                      verb text) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    current_status text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF order_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    SELECT o.status INTO current_status FROM corebank.standing_orders o WHERE o.id = order_id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Standing order not found');
    END IF;
    IF NOT current_status = ANY (allowed) THEN
        PERFORM corebank_internal.fail('CB409', format('Cannot %s a standing order that is %s', verb, current_status));
    END IF;
    UPDATE corebank.standing_orders o SET status = to_status, updated_at = now(), updated_by = actor WHERE o.id = order_id;
    RETURN corebank_internal.standing_order_json(order_id);
END
$fn$;
