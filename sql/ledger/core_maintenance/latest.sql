-- Housekeeping for the tier to call every minute: stores LAPSED on overdue
-- parked changes and prunes finished rate-limit windows, in bounded batches.
CREATE FUNCTION corebank.core_maintenance() RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    lapsed int;
    pruned int;
BEGIN
    lapsed := corebank.parked_changes_lapse();
    DELETE FROM corebank.api_key_rate_counters c
    WHERE c.ctid = ANY (ARRAY(SELECT x.ctid FROM corebank.api_key_rate_counters x
                              WHERE x.window_start < date_trunc('minute', now()) - interval '1 minute'
                              LIMIT 10000));
    GET DIAGNOSTICS pruned = ROW_COUNT;
    RETURN jsonb_build_object('lapsedChanges', lapsed, 'rateCountersPruned', pruned);
END
$fn$;
