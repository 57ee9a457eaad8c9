-- auth_login_finish with the second factor: after the password's proof, a
-- user with TOTP enabled needs a current TOTP code (each step accepted once)
-- or an unused recovery code; without one the answer is
-- {"outcome":"mfa_required"}, with a wrong one {"outcome":"invalid"} and a
-- failed login counted. The session's amr records the factors shown.
CREATE FUNCTION corebank.auth_login_finish_with_factor(user_id uuid, password_proof bytea, client_id text,
                                                       channel text, ip text, user_agent text,
                                                       refresh_token_hash bytea, totp_code text,
                                                       recovery_code text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_login_finish_with_factor'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
