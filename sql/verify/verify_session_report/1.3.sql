CREATE FUNCTION corebank.verify_session_report(session_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF session_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'session_id: is required');
    END IF;
    RETURN corebank_internal.verify_report_json(verify_session_report.session_id);
END
$fn$;
