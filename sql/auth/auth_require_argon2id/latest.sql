-- A password or client-secret hash the tier produced, or CBV00 '<name>:
-- must be an argon2id encoded hash'. The database never sees a password,
-- only this. The rule itself is auth_password_hash_valid (C++, shared with
-- auth_register and the password reset).
CREATE OR REPLACE FUNCTION corebank_internal.auth_require_argon2id(hash text, name text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF hash IS NULL OR NOT corebank_internal.auth_password_hash_valid(hash) THEN
        PERFORM corebank_internal.fail('CBV00', name || ': must be an argon2id encoded hash');
    END IF;
END
$fn$;
