-- AFTER UPDATE ON auth_reset_tokens, when a reset token is used: following
-- the emailed link proved the user controls that email, which with a first
-- and last name is BASIC (docs/identity.md, "KYC tiers"). A user at BASIC or
-- above, or without both names, is left alone.
CREATE FUNCTION corebank_internal.auth_kyc_contact_proven() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    u corebank.auth_users;
BEGIN
    SELECT * INTO u FROM corebank.auth_users x WHERE x.id = NEW.user_id FOR UPDATE;
    IF u.kyc_tier = 'NONE' AND btrim(coalesce(u.first_name, '')) <> '' AND btrim(coalesce(u.last_name, '')) <> ''
       AND u.email IS NOT NULL THEN
        PERFORM corebank_internal.auth_kyc_tier_move(u.id, 'BASIC', 'contact_proof',
            jsonb_build_object('contact', 'email', 'proof', 'password_reset_link',
                               'provedAt', corebank_internal.iso_utc(NEW.used_at)), NULL, NULL);
    END IF;
    RETURN NULL;
END
$fn$;
