CREATE OR REPLACE FUNCTION corebank.verify_session_get(session_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.verify_session_json(corebank_internal.require_present(verify_session_get.session_id, 'session_id'));
END
$fn$;
