-- POST /auth/me/email and /auth/me/phone: starts a claim of an email or a
-- phone for the user, pending until the code sent to it is confirmed
-- (auth_contact_claim_confirm). Only with the user's re-entered password
-- (password_proof, the raw argon2id output) and, with TOTP enabled, a code
-- (factor_code), checked here by corebank_internal.auth_contact_reenter
-- before anything else is looked at: a stolen access token alone can neither
-- move the login identifier nor learn who holds a value. A wrong secret is
-- counted as a failed login and answered {"outcome":"invalid"} (so the count
-- persists), {"outcome":"locked"|"mfa_required"} likewise, nothing claimed.
-- The tier makes the code and sends only its HMAC (code_hash, a key derived
-- from the data key that the database never holds), so a copy of this table
-- cannot be searched for the 10^6 codes.
-- 409 when another account holds the value now (02-identity.md, CONFLICT);
-- another user's pending claim does not block, the confirmation settles it.
-- A new claim replaces the user's pending one of that kind. At most 5 claims
-- per user and hour (each sends a message to an address the user names):
-- then {"rateLimited": true} and nothing is written. Answers the claim id,
-- the normalised value and when the code expires (15 minutes).
CREATE FUNCTION corebank.auth_contact_claim_start(user_id uuid, kind text, value text, code_hash bytea,
                                                  password_proof bytea, factor_code text, ip text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    u corebank.auth_users;
    wanted text;
    proven jsonb;
    claim corebank.auth_contact_claims;
BEGIN
    IF kind IS NULL OR kind NOT IN ('email', 'phone') THEN
        PERFORM corebank_internal.fail('CBV00', 'kind: must be email or phone');
    END IF;
    IF code_hash IS NULL OR length(code_hash) <> 32 THEN
        PERFORM corebank_internal.fail('CBV00', 'code_hash: must be 32 bytes');
    END IF;
    IF kind = 'email' THEN
        wanted := corebank_internal.normalize_email(value);
        IF wanted IS NULL OR length(wanted) NOT BETWEEN 3 AND 254 OR wanted !~ '^[^@[:space:]]+@[^@[:space:]]+$' THEN
            PERFORM corebank_internal.fail('CBV00', 'email: must be a valid email address');
        END IF;
    ELSE
        wanted := value;
        IF wanted IS NULL OR wanted !~ '^\+?[0-9]{10,15}$' THEN
            PERFORM corebank_internal.fail('CBV00', 'phone: must match ^\+?[0-9]{10,15}$');
        END IF;
    END IF;
    proven := corebank_internal.auth_contact_reenter(user_id, password_proof, factor_code, ip);
    IF proven ->> 'outcome' <> 'ok' THEN
        RETURN proven;
    END IF;
    -- The user's row orders this claim against a confirmation of the same user.
    SELECT * INTO u FROM corebank.auth_users x WHERE x.id = user_id AND x.status = 'ACTIVE' FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'User not found');
    END IF;
    IF corebank_internal.auth_contact_value_owner(u.id, kind, wanted) IS NOT NULL THEN
        PERFORM corebank_internal.fail('CB409', format('That %s belongs to another account', kind));
    END IF;
    IF (kind = 'email' AND u.email = wanted AND u.email_verified_at IS NOT NULL)
       OR (kind = 'phone' AND u.phone_key = regexp_replace(wanted, '[^0-9]', '', 'g') AND u.phone_verified_at IS NOT NULL)
    THEN
        PERFORM corebank_internal.fail('CB409', format('That %s is already verified on this account', kind));
    END IF;
    IF (SELECT count(*) FROM corebank.auth_contact_claims c
        WHERE c.user_id = u.id AND c.created_at > now() - interval '1 hour') >= 5 THEN
        RETURN jsonb_build_object('rateLimited', true);
    END IF;
    UPDATE corebank.auth_contact_claims c SET status = 'REPLACED', closed_at = now()
    WHERE c.user_id = u.id AND c.kind = auth_contact_claim_start.kind AND c.status = 'PENDING';
    INSERT INTO corebank.auth_contact_claims AS c (user_id, kind, value, code_hash, expires_at)
    VALUES (u.id, kind, wanted, code_hash, now() + interval '15 minutes')
    RETURNING * INTO claim;
    PERFORM corebank_internal.audit(u.id, 'contact_claimed',
                                    jsonb_build_object('kind', kind, 'value', wanted, 'claimId', claim.id));
    RETURN jsonb_build_object('claimId', claim.id, 'kind', kind, 'value', wanted,
                              'expiresAt', corebank_internal.iso_utc(claim.expires_at));
END
$fn$;
