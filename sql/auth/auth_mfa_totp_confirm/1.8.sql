-- Confirms a pending enrolment with a current code: TOTP is on from then, the
-- code's step is used, and the first set of recovery codes is answered,
-- {"recoveryCodes": [...]}, shown once. A wrong code raises CBV00.
CREATE FUNCTION corebank.auth_mfa_totp_confirm(user_id uuid, code text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_mfa_totp_confirm'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
