-- Who may administer identities (docs/identity.md, "Client administration
-- and suspension"): the acting user, from the token the tier verified, must
-- be ACTIVE, act through a live session of theirs, hold one of `allowed`
-- (their roles now, not the token's claim), and, when their roles meet
-- corebank.staff_mfa_roles, have signed that session in with a second
-- factor (amr holds 'mfa': the core tier's rule, with its message).
-- Raises CB403 otherwise.
CREATE FUNCTION corebank_internal.auth_client_admin_actor(actor_user_id uuid, actor_session_id uuid, allowed text[])
    RETURNS void
    LANGUAGE plpgsql
    AS $fn$
#variable_conflict use_variable
DECLARE
    actor_roles text[];
    session_amr text[];
    needing text;
BEGIN
    SELECT u.roles INTO actor_roles FROM corebank.auth_users u WHERE u.id = actor_user_id AND u.status = 'ACTIVE';
    SELECT s.amr INTO session_amr FROM corebank.auth_sessions s
    WHERE s.id = actor_session_id AND s.user_id = actor_user_id AND s.revoked_at IS NULL AND s.expires_at > now();
    IF actor_roles IS NULL OR session_amr IS NULL THEN
        PERFORM corebank_internal.fail('CB403', 'The acting user or session is not active');
    END IF;
    IF NOT actor_roles && allowed THEN
        PERFORM corebank_internal.fail('CB403', 'Requires the role ' || array_to_string(allowed, ' or '));
    END IF;
    SELECT string_agg(r, ', ' ORDER BY r) INTO needing
    FROM unnest(actor_roles) AS r
    WHERE r = ANY (string_to_array(corebank_internal.auth_client_admin_mfa_roles(), ','));
    IF needing IS NOT NULL AND NOT 'mfa' = ANY (session_amr) THEN
        PERFORM corebank_internal.fail('CB403', 'A second factor is required for the role ' || needing
            || ': sign in with a one-time code (enrol at POST /auth/mfa/totp on the identity service)');
    END IF;
END
$fn$;
