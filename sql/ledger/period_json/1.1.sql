CREATE FUNCTION corebank_internal.period_json(period text) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN coalesce(
        (SELECT jsonb_build_object('period', p.period, 'status', p.status,
                                   'closedAt', corebank_internal.iso_utc(p.closed_at), 'closedBy', p.closed_by)
         FROM corebank.accounting_periods p WHERE p.period = period_json.period),
        jsonb_build_object('period', period, 'status', 'OPEN', 'closedAt', NULL, 'closedBy', NULL));
END
$fn$;
