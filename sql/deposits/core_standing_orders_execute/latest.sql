-- Runs every ACTIVE order due on or before run_date, once per order and
-- date (the execution row's unique key), each payment in its own
-- subtransaction so that one failure does not stop the others.
CREATE OR REPLACE FUNCTION corebank.core_standing_orders_execute(run_date date, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    operator uuid := coalesce(actor, corebank_internal.system_actor());
    due_id uuid;
    o corebank.standing_orders;
    execution_id uuid;
    paid_id uuid;
    failure text;
    k int;
    next_date date;
    results jsonb := '[]'::jsonb;
    succeeded int := 0;
    failed int := 0;
    repeated int := 0;
BEGIN
    PERFORM corebank_internal.deposit_run_date(run_date);
    -- Due orders, and orders already executed for this date (reported,
    -- never paid again).
    FOR due_id IN SELECT x.id FROM corebank.standing_orders x
                  WHERE (x.status = 'ACTIVE' AND x.next_run_date <= run_date)
                     OR EXISTS (SELECT FROM corebank.standing_order_executions e
                                WHERE e.standing_order_id = x.id AND e.execution_date = run_date)
                  ORDER BY x.next_run_date, x.reference LIMIT 10000 LOOP
        -- Re-read under the row lock: a concurrent execution may have moved it.
        SELECT * INTO o FROM corebank.standing_orders x WHERE x.id = due_id FOR UPDATE;
        execution_id := NULL;
        IF o.status = 'ACTIVE' AND o.next_run_date <= run_date THEN
            -- The unique key: a concurrent execution for this date waits here
            -- and then finds the row.
            INSERT INTO corebank.standing_order_executions AS e (standing_order_id, execution_date, scheduled_date,
                                                                 executed_by)
            VALUES (o.id, run_date, o.next_run_date, operator)
            ON CONFLICT (standing_order_id, execution_date) DO NOTHING
            RETURNING e.id INTO execution_id;
        END IF;
        IF execution_id IS NULL THEN
            IF NOT EXISTS (SELECT FROM corebank.standing_order_executions e
                           WHERE e.standing_order_id = o.id AND e.execution_date = run_date) THEN
                CONTINUE;
            END IF;
            repeated := repeated + 1;
            results := results || (
                SELECT jsonb_build_object(
                    'standingOrderId', o.id, 'reference', o.reference, 'scheduledDate', e.scheduled_date,
                    'outcome', 'ALREADY_EXECUTED', 'transactionId', e.transaction_id,
                    'amountMinor', o.amount_minor, 'amount', corebank_internal.money_text(o.amount_minor, o.currency),
                    'currency', o.currency,
                    'reason', format('already executed for %s (%s%s)', run_date, e.status,
                                     CASE WHEN e.reason IS NOT NULL THEN ': ' || e.reason ELSE '' END),
                    'nextRunDate', CASE WHEN o.status IN ('ACTIVE', 'PAUSED') THEN o.next_run_date END)
                FROM corebank.standing_order_executions e
                WHERE e.standing_order_id = o.id AND e.execution_date = run_date);
            CONTINUE;
        END IF;
        paid_id := NULL;
        failure := NULL;
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
            succeeded := succeeded + 1;
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
            failed := failed + 1;
            UPDATE corebank.standing_order_executions e SET status = 'FAILED', reason = left(failure, 1000)
            WHERE e.id = execution_id;
            UPDATE corebank.standing_orders x
            SET consecutive_failures = x.consecutive_failures + 1, last_failure_reason = left(failure, 1000),
                updated_at = now(), updated_by = operator
            WHERE x.id = o.id
            RETURNING x.* INTO o;
        END IF;
        results := results || jsonb_build_object(
            'standingOrderId', o.id, 'reference', o.reference,
            'scheduledDate', (SELECT e.scheduled_date FROM corebank.standing_order_executions e WHERE e.id = execution_id),
            'outcome', CASE WHEN failure IS NULL THEN 'SUCCEEDED' ELSE 'FAILED' END, 'transactionId', paid_id,
            'amountMinor', o.amount_minor, 'amount', corebank_internal.money_text(o.amount_minor, o.currency),
            'currency', o.currency, 'reason', failure,
            'nextRunDate', CASE WHEN o.status IN ('ACTIVE', 'PAUSED') THEN o.next_run_date END);
    END LOOP;
    RETURN jsonb_build_object('date', run_date, 'due', succeeded + failed + repeated, 'succeeded', succeeded,
                              'failed', failed, 'alreadyExecuted', repeated, 'results', results);
END
$fn$;
