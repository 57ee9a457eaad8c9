-- A new set of recovery codes, replacing the old one, for a current code (or
-- an unused recovery code). A wrong code counts as auth_mfa_totp_disable's
-- does. Answers {"outcome":"ok","recoveryCodes":[...]}|{"outcome":"invalid"|"locked"}.
CREATE FUNCTION corebank.auth_mfa_recovery_codes(user_id uuid, code text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_mfa_recovery_codes'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
