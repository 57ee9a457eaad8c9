-- The bearer check on every call: live session and ACTIVE user (or ACTIVE
-- client for client tokens), unexpired token (auth_live_tokens). One
-- primary-key lookup and two primary-key joins.
CREATE OR REPLACE FUNCTION corebank.auth_authenticate(jti uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN coalesce((
        SELECT jsonb_build_object('active', true, 'userId', t.user_id, 'sessionId', t.session_id,
                                  'clientId', coalesce(t.client_id, t.session_client_id))
        FROM corebank_internal.auth_live_tokens t
        WHERE t.jti = auth_authenticate.jti
    ), '{"active": false}'::jsonb);
END
$fn$;
