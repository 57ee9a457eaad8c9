-- The members every view of a session starts with (the session object, the
-- report, the hosted page): id, the status a caller sees, flow, decision and
-- expiry.
CREATE FUNCTION corebank_internal.verify_session_head_json(s corebank.verify_sessions) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN jsonb_build_object(
        'sessionId', s.id,
        'status', corebank_internal.verify_effective_status(s.status, s.expires_at),
        'flow', s.flow,
        'decision', s.decision,
        'expiresAt', corebank_internal.verify_iso_utc(s.expires_at));
END
$fn$;
