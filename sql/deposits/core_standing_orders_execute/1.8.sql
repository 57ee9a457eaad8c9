-- Runs every ACTIVE order due on or before run_date, once per order and
-- date (standing_order_execute), each payment in its own subtransaction so
-- that one failure does not stop the others.
CREATE OR REPLACE FUNCTION corebank.core_standing_orders_execute(run_date date, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    operator uuid := coalesce(actor, corebank_internal.system_actor());
    due_id uuid;
    result jsonb;
    results jsonb := '[]'::jsonb;
BEGIN
    PERFORM corebank_internal.deposit_run_date(run_date);
    -- Due orders, and orders already executed for this date (reported,
    -- never paid again).
    FOR due_id IN SELECT x.id FROM corebank.standing_orders x
                  WHERE (x.status = 'ACTIVE' AND x.next_run_date <= run_date)
                     OR EXISTS (SELECT FROM corebank.standing_order_executions e
                                WHERE e.standing_order_id = x.id AND e.execution_date = run_date)
                  ORDER BY x.next_run_date, x.reference LIMIT 10000 LOOP
        result := corebank_internal.standing_order_execute(due_id, run_date, operator);
        IF result IS NOT NULL THEN
            results := results || jsonb_build_array(result);
        END IF;
    END LOOP;
    RETURN (SELECT jsonb_build_object(
                'date', run_date, 'due', jsonb_array_length(results),
                'succeeded', count(*) FILTER (WHERE r ->> 'outcome' = 'SUCCEEDED'),
                'failed', count(*) FILTER (WHERE r ->> 'outcome' = 'FAILED'),
                'alreadyExecuted', count(*) FILTER (WHERE r ->> 'outcome' = 'ALREADY_EXECUTED'),
                'results', results)
            FROM jsonb_array_elements(results) r);
END
$fn$;
