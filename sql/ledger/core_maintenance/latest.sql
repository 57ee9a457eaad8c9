-- Housekeeping for the tier to call every minute: stores LAPSED on overdue
-- parked changes, prunes finished rate-limit windows and (1.8) folds hot
-- accounts' credit stripes into their balances, in bounded batches.
CREATE OR REPLACE FUNCTION corebank.core_maintenance() RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    lapsed int;
    pruned int;
    folded int;
BEGIN
    lapsed := corebank.parked_changes_lapse();
    DELETE FROM corebank.api_key_rate_counters c
    WHERE c.ctid = ANY (ARRAY(SELECT x.ctid FROM corebank.api_key_rate_counters x
                              WHERE x.window_start < date_trunc('minute', now()) - interval '1 minute'
                              LIMIT 10000));
    GET DIAGNOSTICS pruned = ROW_COUNT;
    folded := corebank_internal.account_credit_stripes_fold(1000);
    RETURN jsonb_build_object('lapsedChanges', lapsed, 'rateCountersPruned', pruned, 'creditStripesFolded', folded);
END
$fn$;
