-- Job approvals_lapse: parked changes past their expiry become LAPSED (the
-- same function as the minute's maintenance pass).
CREATE FUNCTION corebank_internal.eod_approvals_lapse(run_date date, unit text, actor uuid) RETURNS jsonb
    LANGUAGE sql
    AS $fn$
    SELECT jsonb_build_object('lapsedChanges', corebank.parked_changes_lapse())
$fn$;
