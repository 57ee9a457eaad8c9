-- The second half of a password login: compares the tier's proof (the raw
-- 32-byte argon2id output of the password under the parameters and salt
-- auth_login_begin answered) with the stored hash in constant time, inside
-- the extension; the outcome is the database's own, never the caller's word.
CREATE FUNCTION corebank.auth_login_finish(user_id uuid, password_proof bytea, client_id text, channel text,
                                           ip text, user_agent text, refresh_token_hash bytea) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_login_finish'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
