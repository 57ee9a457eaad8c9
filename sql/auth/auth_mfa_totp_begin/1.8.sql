-- Starts a TOTP enrolment: 20 random bytes, stored only sealed under the root
-- key (purpose totp_secret, the user id as associated data), pending until
-- confirmed. Answers {"secret": base32, "otpauthUri"}: the one time the
-- secret leaves the database. A second call before confirmation replaces the
-- pending secret; with TOTP already on it raises CB409.
CREATE FUNCTION corebank.auth_mfa_totp_begin(user_id uuid, issuer text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_mfa_totp_begin'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
