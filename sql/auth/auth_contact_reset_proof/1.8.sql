-- AFTER UPDATE ON auth_reset_tokens, when a reset token is used: the link
-- went to the account's email, so following it proves that email, as a
-- confirmed email claim does; both set auth_users.email_verified_at, the
-- one record of emailVerified. An email change expires the unused reset
-- tokens (auth_contact_claim_confirm), so a used token always proves the
-- email the account has.
CREATE FUNCTION corebank_internal.auth_contact_reset_proof() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    UPDATE corebank.auth_users u SET email_verified_at = NEW.used_at
    WHERE u.id = NEW.user_id AND u.email IS NOT NULL AND u.email_verified_at IS NULL;
    RETURN NULL;
END
$fn$;
