-- One standing order on run_date: its result object (the `results` item of
-- StandingOrderExecutionResponse), or NULL when the order is neither due on
-- or before run_date nor already executed for it. The execution row's
-- unique (order, date) key makes it exactly once: a concurrent call for the
-- same order and date waits on the order's row lock and then reports
-- ALREADY_EXECUTED. The payment runs in its own subtransaction, so that a
-- refused payment is recorded as FAILED instead of undoing the execution
-- row. Shared by POST /v1/standing-orders/execute and the end-of-day runner.
CREATE FUNCTION corebank_internal.standing_order_execute(order_id uuid, run_date date, operator uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    o corebank.standing_orders;
    execution_id uuid;
    paid_id uuid;
    failure text;
    k int;
    next_date date;
BEGIN
    -- Read under the row lock: a concurrent execution may have moved it.
    SELECT * INTO o FROM corebank.standing_orders x WHERE x.id = order_id FOR UPDATE;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    IF o.status = 'ACTIVE' AND o.next_run_date <= run_date THEN
        INSERT INTO corebank.standing_order_executions AS e (standing_order_id, execution_date, scheduled_date,
                                                             executed_by)
        VALUES (o.id, run_date, o.next_run_date, operator)
        ON CONFLICT (standing_order_id, execution_date) DO NOTHING
        RETURNING e.id INTO execution_id;
    END IF;
    IF execution_id IS NULL THEN
        -- Already executed for this date: reported, never paid again.
        RETURN (SELECT jsonb_build_object(
                    'standingOrderId', o.id, 'reference', o.reference, 'scheduledDate', e.scheduled_date,
                    'outcome', 'ALREADY_EXECUTED', 'transactionId', e.transaction_id,
                    'amountMinor', o.amount_minor, 'amount', corebank_internal.money_text(o.amount_minor, o.currency),
                    'currency', o.currency,
                    'reason', format('already executed for %s (%s%s)', run_date, e.status,
                                     CASE WHEN e.reason IS NOT NULL THEN ': ' || e.reason ELSE '' END),
                    'nextRunDate', CASE WHEN o.status IN ('ACTIVE', 'PAUSED') THEN o.next_run_date END)
                FROM corebank.standing_order_executions e
                WHERE e.standing_order_id = o.id AND e.execution_date = run_date);
    END IF;
    BEGIN
        paid_id := corebank_internal.money_transfer(jsonb_build_object(
            'fromAccountId', o.source_account_id, 'toAccountId', o.target_account_id, 'amountMinor', o.amount_minor,
            'reference', 'SO-' || o.reference || '-' || to_char(run_date, 'YYYYMMDD'), 'valueDate', run_date,
            'channel', 'STANDING_ORDER', 'branchId', (SELECT a.branch_id FROM corebank.ledger_accounts a WHERE a.id = o.source_account_id),
            'description', coalesce(o.description, 'Standing order ' || o.reference)), operator, false);
    EXCEPTION WHEN OTHERS THEN
        failure := SQLERRM;
    END;
    IF failure IS NULL THEN
        k := o.periods_elapsed;
        next_date := o.next_run_date;
        -- Missed periods are not paid twice: move past run_date.
        WHILE next_date <= run_date LOOP
            k := k + 1;
            next_date := corebank_internal.schedule_date(o.start_date, o.frequency, k);
        END LOOP;
        UPDATE corebank.standing_order_executions e SET status = 'SUCCEEDED', transaction_id = paid_id
        WHERE e.id = execution_id;
        UPDATE corebank.standing_orders x
        SET periods_elapsed = k, next_run_date = next_date, last_run_date = run_date, consecutive_failures = 0,
            last_failure_reason = NULL,
            status = CASE WHEN x.end_date IS NOT NULL AND next_date > x.end_date THEN 'COMPLETED' ELSE x.status END,
            updated_at = now(), updated_by = operator
        WHERE x.id = o.id
        RETURNING x.* INTO o;
    ELSE
        UPDATE corebank.standing_order_executions e SET status = 'FAILED', reason = left(failure, 1000)
        WHERE e.id = execution_id;
        UPDATE corebank.standing_orders x
        SET consecutive_failures = x.consecutive_failures + 1, last_failure_reason = left(failure, 1000),
            updated_at = now(), updated_by = operator
        WHERE x.id = o.id
        RETURNING x.* INTO o;
    END IF;
    RETURN jsonb_build_object(
        'standingOrderId', o.id, 'reference', o.reference,
        'scheduledDate', (SELECT e.scheduled_date FROM corebank.standing_order_executions e WHERE e.id = execution_id),
        'outcome', CASE WHEN failure IS NULL THEN 'SUCCEEDED' ELSE 'FAILED' END, 'transactionId', paid_id,
        'amountMinor', o.amount_minor, 'amount', corebank_internal.money_text(o.amount_minor, o.currency),
        'currency', o.currency, 'reason', failure,
        'nextRunDate', CASE WHEN o.status IN ('ACTIVE', 'PAUSED') THEN o.next_run_date END);
END
$fn$;
