-- Staff with admin or compliance_officer suspend an ACTIVE user with a
-- reason (1 to 500 characters): in one transaction the status becomes
-- SUSPENDED, every live session is revoked (so every token of the user
-- stops at once), and the move is audited on the user with who and why.
-- Refused: oneself (CB403), no such user (CB404), a user not ACTIVE
-- (CB409: already suspended, or deactivated, which is final).
CREATE FUNCTION corebank.auth_user_suspend(actor_user_id uuid, actor_session_id uuid, user_id uuid, reason text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    was text;
    revoked int;
BEGIN
    PERFORM corebank_internal.auth_client_admin_actor(actor_user_id, actor_session_id,
                                                      ARRAY['admin', 'compliance_officer']);
    PERFORM corebank_internal.require_present(user_id, 'user_id');
    IF reason IS NULL OR length(btrim(reason)) = 0 OR length(reason) > 500 THEN
        PERFORM corebank_internal.fail('CBV00', 'reason: must be 1 to 500 characters');
    END IF;
    IF user_id = actor_user_id THEN
        PERFORM corebank_internal.fail('CB403', 'Nobody may suspend themselves');
    END IF;
    SELECT u.status INTO was FROM corebank.auth_users u WHERE u.id = user_id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'No user has this id');
    END IF;
    IF was <> 'ACTIVE' THEN
        PERFORM corebank_internal.fail('CB409', 'Only an ACTIVE user can be suspended; this one is ' || was);
    END IF;
    UPDATE corebank.auth_users u SET status = 'SUSPENDED', updated_at = now() WHERE u.id = user_id;
    revoked := corebank_internal.auth_sessions_revoke_live(user_id, 'suspended');
    PERFORM corebank_internal.audit(user_id, 'suspended',
        jsonb_build_object('by', actor_user_id, 'reason', reason, 'revokedSessions', revoked));
    RETURN jsonb_build_object('userId', user_id, 'status', 'SUSPENDED', 'revokedSessions', revoked);
END
$fn$;
