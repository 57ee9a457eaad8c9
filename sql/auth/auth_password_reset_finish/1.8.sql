-- Consumes a reset token and sets the new hash. new_password_proof is the new
-- password hashed by the tier under the current hash's parameters and salt
-- (as auth_password_reset_begin answers them): equal to the current hash, the
-- reset is refused (CBV00), compared here since the tier never sees the hash.
CREATE FUNCTION corebank.auth_password_reset_finish(token_hash bytea, new_password_hash text,
                                                    new_password_proof bytea) RETURNS void
    AS 'MODULE_PATHNAME', 'auth_password_reset_finish'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
