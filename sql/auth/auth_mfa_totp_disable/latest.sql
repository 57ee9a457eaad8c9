-- Turns TOTP off with a current code or an unused recovery code, and drops
-- the recovery codes. Refused (CB403) while the user holds a role of
-- corebank.staff_mfa_roles. A wrong code is a failed login of the user (the
-- login counter and lock). Answers {"outcome":"ok"|"invalid"|"locked"}.
CREATE FUNCTION corebank.auth_mfa_totp_disable(user_id uuid, code text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_mfa_totp_disable'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
