-- The outbound event an identity audit row announces (docs/identity.md,
-- "Outbound events"), or NULL: only moves a receiver acts on are sent;
-- logins, refreshes, logouts and failed attempts stay in the audit alone.
CREATE FUNCTION corebank_internal.auth_outbound_event_type(event text, detail jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT CASE event
        WHEN 'register' THEN 'identity.user.registered'
        WHEN 'suspended' THEN 'identity.user.suspended'
        WHEN 'reinstated' THEN 'identity.user.reinstated'
        WHEN 'deactivated' THEN 'identity.user.deactivated'
        WHEN 'locked' THEN 'identity.user.locked'
        WHEN 'password_changed' THEN 'identity.password.changed'
        WHEN 'password_reset' THEN 'identity.password.changed'
        WHEN 'mfa_enabled' THEN 'identity.mfa.enabled'
        WHEN 'mfa_disabled' THEN 'identity.mfa.disabled'
        WHEN 'contact_confirmed' THEN
            CASE detail ->> 'kind' WHEN 'email' THEN 'identity.user.email_changed'
                                   WHEN 'phone' THEN 'identity.user.phone_changed' END
    END
$fn$;
