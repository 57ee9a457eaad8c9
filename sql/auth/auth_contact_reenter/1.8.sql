-- The proof a contact claim needs (auth_contact_claim_start calls it before
-- it writes anything): the re-entered password, compared with the stored
-- hash in constant time, and with TOTP enabled a current TOTP code or an
-- unused recovery code (factor_code; ignored without TOTP, as at login). A
-- wrong one is a failed login of the user (the login counter and its
-- 30-minute lock, as auth_password_reenter_finish and auth_mfa_totp_disable
-- count them), a right pair clears the counter. Answers
-- {"outcome":"ok"|"invalid"|"locked"|"mfa_required"}.
CREATE FUNCTION corebank_internal.auth_contact_reenter(user_id uuid, password_proof bytea, factor_code text, ip text)
    RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_contact_reenter'
    LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;
