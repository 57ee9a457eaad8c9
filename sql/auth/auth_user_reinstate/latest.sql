-- The same staff reinstate a SUSPENDED user with a reason: the status
-- becomes ACTIVE (the user signs in again; no session comes back), audited
-- with who and why. Refused: oneself (CB403), no such user (CB404), a user
-- not SUSPENDED (CB409).
CREATE FUNCTION corebank.auth_user_reinstate(actor_user_id uuid, actor_session_id uuid, user_id uuid, reason text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    was text;
BEGIN
    PERFORM corebank_internal.auth_client_admin_actor(actor_user_id, actor_session_id,
                                                      ARRAY['admin', 'compliance_officer']);
    PERFORM corebank_internal.require_present(user_id, 'user_id');
    IF reason IS NULL OR length(btrim(reason)) = 0 OR length(reason) > 500 THEN
        PERFORM corebank_internal.fail('CBV00', 'reason: must be 1 to 500 characters');
    END IF;
    IF user_id = actor_user_id THEN
        PERFORM corebank_internal.fail('CB403', 'Nobody may reinstate themselves');
    END IF;
    SELECT u.status INTO was FROM corebank.auth_users u WHERE u.id = user_id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'No user has this id');
    END IF;
    IF was <> 'SUSPENDED' THEN
        PERFORM corebank_internal.fail('CB409', 'Only a SUSPENDED user can be reinstated; this one is ' || was);
    END IF;
    UPDATE corebank.auth_users u SET status = 'ACTIVE', updated_at = now() WHERE u.id = user_id;
    PERFORM corebank_internal.audit(user_id, 'reinstated', jsonb_build_object('by', actor_user_id, 'reason', reason));
    RETURN jsonb_build_object('userId', user_id, 'status', 'ACTIVE', 'revokedSessions', 0);
END
$fn$;
