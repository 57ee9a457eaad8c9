-- The first half of checking a password re-entered by a signed-in user
-- (password change, deactivate): counts against the login rate limit, answers
-- {"outcome":"rate_limited"} or {"outcome":"locked"} (locked or not ACTIVE,
-- as login), else {"outcome":"proceed"} with "argon2", the stored hash's
-- parameters and salt (never the hash).
CREATE FUNCTION corebank.auth_password_reenter_begin(user_id uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_password_reenter_begin'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
