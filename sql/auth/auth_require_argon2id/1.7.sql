-- A password or client-secret hash the tier produced: an argon2id PHC string
-- of at most 512 characters, or CBV00 '<name>: must be an argon2id encoded
-- hash'. The database never sees a password, only this. (The C functions,
-- auth_register and the password reset, check the same in
-- extension/pg/values.cpp: password_hash_valid.)
CREATE FUNCTION corebank_internal.auth_require_argon2id(hash text, name text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF hash IS NULL OR hash NOT LIKE '$argon2id$%' OR length(hash) > 512 THEN
        PERFORM corebank_internal.fail('CBV00', name || ': must be an argon2id encoded hash');
    END IF;
END
$fn$;
