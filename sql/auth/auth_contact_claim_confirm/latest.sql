-- POST /auth/me/email/confirm and /auth/me/phone/confirm: the user's pending
-- claim of that kind, with the HMAC of the code typed (see
-- auth_contact_claim_start). Answers {"outcome": ...} rather than raising,
-- so that a wrong attempt is counted and kept:
--   none       no claim of that kind is pending (never made, used, replaced)
--   expired    the 15 minutes have passed; the claim is closed
--   wrong_code a wrong code; attemptsLeft says how many remain, and the 5th
--              wrong one closes the claim (locked)
--   locked     that 5th wrong code
--   conflict   another account holds the value now: the claim is closed.
--              Two users confirming one value race on the unique indexes of
--              auth_users (email, phone_key): the second waits for the first
--              and loses here, so exactly one wins.
--   confirmed  the value is the account's, verified now (email_verified_at or
--              phone_verified_at); previous is the value it replaced, which
--              the tier notifies. An email change expires unused reset tokens,
--              whose links went to the old address.
CREATE FUNCTION corebank.auth_contact_claim_confirm(user_id uuid, kind text, code_hash bytea) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    u corebank.auth_users;
    claim corebank.auth_contact_claims;
    previous text;
BEGIN
    IF kind IS NULL OR kind NOT IN ('email', 'phone') THEN
        PERFORM corebank_internal.fail('CBV00', 'kind: must be email or phone');
    END IF;
    IF code_hash IS NULL OR length(code_hash) <> 32 THEN
        PERFORM corebank_internal.fail('CBV00', 'code_hash: must be 32 bytes');
    END IF;
    SELECT * INTO u FROM corebank.auth_users x WHERE x.id = user_id AND x.status = 'ACTIVE' FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'User not found');
    END IF;
    SELECT * INTO claim FROM corebank.auth_contact_claims c
    WHERE c.user_id = u.id AND c.kind = auth_contact_claim_confirm.kind AND c.status = 'PENDING' FOR UPDATE;
    IF NOT FOUND THEN
        RETURN jsonb_build_object('outcome', 'none');
    END IF;
    IF claim.expires_at <= now() THEN
        UPDATE corebank.auth_contact_claims c SET status = 'EXPIRED', closed_at = now() WHERE c.id = claim.id;
        RETURN jsonb_build_object('outcome', 'expired');
    END IF;
    -- Not a constant-time comparison, and it need not be: both sides are
    -- HMACs under a key derived from the data key, which no guesser holds, so
    -- how early they differ tells nothing of the code.
    IF claim.code_hash <> code_hash THEN
        UPDATE corebank.auth_contact_claims c
        SET attempts = c.attempts + 1,
            status = CASE WHEN c.attempts + 1 >= 5 THEN 'LOCKED' ELSE c.status END,
            closed_at = CASE WHEN c.attempts + 1 >= 5 THEN now() END
        WHERE c.id = claim.id RETURNING * INTO claim;
        PERFORM corebank_internal.audit(u.id, 'contact_claim_failed',
                                        jsonb_build_object('kind', kind, 'claimId', claim.id, 'attempts', claim.attempts));
        IF claim.status = 'LOCKED' THEN
            RETURN jsonb_build_object('outcome', 'locked');
        END IF;
        RETURN jsonb_build_object('outcome', 'wrong_code', 'attemptsLeft', 5 - claim.attempts);
    END IF;
    previous := CASE kind WHEN 'email' THEN u.email ELSE u.phone END;
    BEGIN
        IF corebank_internal.auth_contact_value_owner(u.id, kind, claim.value) IS NOT NULL THEN
            RAISE unique_violation;
        END IF;
        IF kind = 'email' THEN
            UPDATE corebank.auth_users x SET email = claim.value, email_verified_at = now(), updated_at = now()
            WHERE x.id = u.id;
        ELSE
            UPDATE corebank.auth_users x SET phone = claim.value, phone_verified_at = now(), updated_at = now()
            WHERE x.id = u.id;
        END IF;
    EXCEPTION WHEN unique_violation THEN
        UPDATE corebank.auth_contact_claims c SET status = 'CONFLICT', closed_at = now() WHERE c.id = claim.id;
        PERFORM corebank_internal.audit(u.id, 'contact_claim_failed',
                                        jsonb_build_object('kind', kind, 'claimId', claim.id, 'reason', 'conflict'));
        RETURN jsonb_build_object('outcome', 'conflict');
    END;
    UPDATE corebank.auth_contact_claims c SET status = 'CONFIRMED', closed_at = now() WHERE c.id = claim.id;
    IF kind = 'email' THEN
        UPDATE corebank.auth_reset_tokens r SET expires_at = now()
        WHERE r.user_id = u.id AND r.used_at IS NULL AND r.expires_at > now();
    END IF;
    PERFORM corebank_internal.audit(u.id, 'contact_confirmed',
        jsonb_build_object('kind', kind, 'claimId', claim.id, 'value', claim.value, 'previous', previous));
    RETURN jsonb_build_object('outcome', 'confirmed', 'user', corebank.auth_me(u.id),
                              'previous', CASE WHEN previous IS DISTINCT FROM claim.value THEN previous END);
END
$fn$;
