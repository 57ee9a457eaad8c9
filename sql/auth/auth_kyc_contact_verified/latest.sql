-- AFTER UPDATE ON auth_users, for a NONE user with both names: a verified
-- email or phone (auth_users.email_verified_at or phone_verified_at, set by a
-- confirmed contact claim or a followed reset link, issue 14 part 1) with the
-- names is BASIC (docs/identity.md, "KYC tiers"), whichever of the two came
-- last. Only a change of the names or of a verified column counts: a staff
-- fall to NONE is not undone by the fall's own update. The columns are read
-- through to_jsonb, so this holds before and after they exist.
CREATE FUNCTION corebank_internal.auth_kyc_contact_verified() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    row_json jsonb := to_jsonb(NEW);
    old_json jsonb := to_jsonb(OLD);
    contact text;
BEGIN
    IF NOT (row_json -> 'first_name' IS DISTINCT FROM old_json -> 'first_name'
            OR row_json -> 'last_name' IS DISTINCT FROM old_json -> 'last_name'
            OR row_json -> 'email_verified_at' IS DISTINCT FROM old_json -> 'email_verified_at'
            OR row_json -> 'phone_verified_at' IS DISTINCT FROM old_json -> 'phone_verified_at') THEN
        RETURN NULL;
    END IF;
    contact := CASE WHEN row_json ->> 'email_verified_at' IS NOT NULL THEN 'email'
                    WHEN row_json ->> 'phone_verified_at' IS NOT NULL THEN 'phone' END;
    IF contact IS NULL OR btrim(NEW.first_name) = '' OR btrim(NEW.last_name) = '' THEN
        RETURN NULL;
    END IF;
    PERFORM corebank_internal.auth_kyc_tier_move(NEW.id, 'BASIC', 'contact_proof',
        jsonb_build_object('contact', contact, 'proof', 'verified_contact',
                           'verifiedAt', row_json ->> (contact || '_verified_at')), NULL, NULL);
    RETURN NULL;
END
$fn$;
