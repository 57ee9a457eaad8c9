-- Job standing_orders, one order: the same execution as POST
-- /v1/standing-orders/execute (standing_order_execute). A refused payment is
-- the order's FAILED execution, not a failure of the unit.
CREATE FUNCTION corebank_internal.eod_standing_order(run_date date, unit text, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    result jsonb := corebank_internal.standing_order_execute(unit::uuid, run_date, actor);
    outcome text := coalesce(result ->> 'outcome', 'NOT_DUE');
BEGIN
    RETURN jsonb_build_object(
        'paid', (outcome = 'SUCCEEDED')::int, 'paymentsFailed', (outcome = 'FAILED')::int,
        'alreadyExecuted', (outcome = 'ALREADY_EXECUTED')::int, 'notDue', (outcome = 'NOT_DUE')::int,
        'outcome', outcome, 'transactionId', result -> 'transactionId', 'reason', result -> 'reason');
END
$fn$;
