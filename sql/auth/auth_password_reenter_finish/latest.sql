-- The second half: compares the tier's proof with the stored hash in
-- constant time; a wrong password is a failed login of the user (the same
-- counter and 30-minute lock as auth_login_finish), a right one resets the
-- counter. Answers {"outcome":"ok"|"invalid"|"locked"}.
CREATE FUNCTION corebank.auth_password_reenter_finish(user_id uuid, password_proof bytea, ip text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_password_reenter_finish'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
