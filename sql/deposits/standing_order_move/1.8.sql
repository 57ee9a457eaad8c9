-- 1.8 (issue 15, branch scoping): an order whose source account the
-- transaction cannot see is not found (cancel, pause and resume call this;
-- the execution run does not).
CREATE OR REPLACE FUNCTION corebank_internal.standing_order_move(order_id uuid, allowed text[], to_status text, actor uuid,
                                                                 verb text) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    current_status text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    SELECT o.status INTO current_status FROM corebank.standing_orders o
    JOIN corebank.ledger_accounts s ON s.id = o.source_account_id
    WHERE o.id = order_id AND corebank.branch_visible(s.branch_id) FOR UPDATE OF o;
    PERFORM corebank_internal.deposit_status_move_check(order_id, current_status, allowed, 'a standing order', verb,
                                                        'Standing order not found');
    UPDATE corebank.standing_orders o SET status = to_status, updated_at = now(), updated_by = actor WHERE o.id = order_id;
    RETURN corebank_internal.standing_order_json(order_id);
END
$fn$;
