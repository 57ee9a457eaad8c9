-- The caller's second-factor state for GET /auth/mfa: whether TOTP is on and
-- since when (a pending enrolment is not on), and how many unused recovery
-- codes are left. Never the secret.
CREATE FUNCTION corebank.auth_mfa_state(user_id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
SELECT jsonb_build_object(
           'totp', jsonb_build_object(
               'enabled', t.enabled_at IS NOT NULL,
               'enrolledAt', to_char(t.enabled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
           'recoveryCodesLeft',
           (SELECT count(*) FROM corebank.auth_mfa_recovery_codes r
            WHERE r.user_id = auth_mfa_state.user_id AND r.used_at IS NULL))
FROM (SELECT auth_mfa_state.user_id AS id) AS me
LEFT JOIN corebank.auth_mfa_totp t ON t.user_id = me.id
$fn$;
