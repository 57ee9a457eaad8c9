-- Whether a text is a password or client-secret hash the database accepts:
-- an argon2id PHC string ("$argon2id$" and more) of at most 512 bytes. The
-- rule is extension/pg/values.cpp's password_hash_valid, the one the C
-- functions (auth_register, the password reset) apply, so SQL cannot drift
-- from it (1.7's PL/pgSQL copy accepted a bare "$argon2id$").
CREATE FUNCTION corebank_internal.auth_password_hash_valid(hash text) RETURNS boolean
    AS 'MODULE_PATHNAME', 'auth_password_hash_valid' LANGUAGE C IMMUTABLE STRICT;
