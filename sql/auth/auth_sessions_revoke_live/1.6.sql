-- Revokes every live session of a user with `reason` (deactivation,
-- password change, log out everywhere) and says how many there were.
CREATE FUNCTION corebank_internal.auth_sessions_revoke_live(user_id uuid, reason text) RETURNS int
    LANGUAGE plpgsql
    AS $fn$
#variable_conflict use_variable
DECLARE
    revoked int;
BEGIN
    UPDATE corebank.auth_sessions s
    SET revoked_at = now(), revoked_reason = reason
    WHERE s.user_id = user_id AND s.revoked_at IS NULL AND s.expires_at > now();
    GET DIAGNOSTICS revoked = ROW_COUNT;
    RETURN revoked;
END
$fn$;
