-- The head (verify_session_head_json) and the lifecycle members that the
-- session object and the report both carry; the hosted page shows none of
-- them.
CREATE FUNCTION corebank_internal.verify_session_record_json(s corebank.verify_sessions) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.verify_session_head_json(s) || jsonb_build_object(
        'reference', s.reference,
        'decisionReasons', to_jsonb(s.decision_reasons),
        'createdAt', corebank_internal.verify_iso_utc(s.created_at),
        'completedAt', corebank_internal.verify_iso_utc(s.completed_at),
        'cancelledAt', corebank_internal.verify_iso_utc(s.cancelled_at),
        'cancelledBy', s.cancelled_by,
        'cancellationReason', s.cancellation_reason);
END
$fn$;
