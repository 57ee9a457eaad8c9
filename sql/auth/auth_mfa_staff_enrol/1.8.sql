-- ./corebank staff create calls it in the statement that creates the user:
-- when the user's roles meet corebank.staff_mfa_roles, a TOTP secret is made,
-- sealed and enabled at once, and {"secret", "otpauthUri"} answered (printed
-- once by the CLI); else NULL.
CREATE FUNCTION corebank.auth_mfa_staff_enrol(user_id uuid, issuer text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_mfa_staff_enrol'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
