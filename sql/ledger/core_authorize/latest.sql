-- The core service's two checks of every request in one round trip: the
-- API key (with its rate count) and, when the tier verified a staff token,
-- that token's session with the user's current roles and their permissions
-- (staff_session). The tier judges the two answers (banking/auth.cpp).
-- PL/pgSQL, not SQL: a SECURITY DEFINER SQL function is never inlined, and
-- PostgreSQL parses and plans its body again on every call; PL/pgSQL keeps
-- its plans for the session.
CREATE OR REPLACE FUNCTION corebank.core_authorize(key_hash bytea, service text, jti uuid) RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN jsonb_build_object('key', corebank.core_api_key_authenticate(core_authorize.key_hash, core_authorize.service),
                              'staff', CASE WHEN core_authorize.jti IS NULL THEN NULL
                                            ELSE corebank_internal.staff_session(
                                                     corebank.auth_authenticate(core_authorize.jti)) END);
END
$fn$;
