-- The RFC 6238 code (SHA-1, 6 digits) of a 30-second step under a base32
-- key the caller holds: arithmetic only, no stored secret is read.
CREATE FUNCTION corebank_internal.auth_totp_code(secret_base32 text, step integer) RETURNS text
    AS 'MODULE_PATHNAME', 'auth_totp_code'
    LANGUAGE C IMMUTABLE STRICT
    SET search_path = pg_catalog, pg_temp;
