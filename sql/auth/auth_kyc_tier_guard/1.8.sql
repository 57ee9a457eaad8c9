-- BEFORE INSERT OR UPDATE ON auth_users: a new identity is NONE, and its
-- kycTier moves only with a change recorded in auth_kyc_tier_changes by this
-- transaction whose evidence holds in the database now (docs/identity.md,
-- "KYC tiers"): so direct SQL cannot raise or lower a tier by UPDATE alone,
-- nor with a made-up audit row.
CREATE FUNCTION corebank_internal.auth_kyc_tier_guard() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    change corebank.auth_kyc_tier_changes;
    session jsonb;
    rising bool;
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.kyc_tier <> 'NONE' THEN
            PERFORM corebank_internal.fail('CB422', 'a new identity starts at kycTier NONE');
        END IF;
        RETURN NEW;
    END IF;
    SELECT * INTO change FROM corebank.auth_kyc_tier_changes c
    WHERE c.user_id = NEW.id AND c.txid = txid_current() AND c.from_tier = OLD.kyc_tier AND c.to_tier = NEW.kyc_tier
    ORDER BY c.id DESC LIMIT 1;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB403', 'kycTier changes only with its evidence recorded in auth_kyc_tier_changes');
    END IF;
    rising := corebank_internal.auth_kyc_rank(NEW.kyc_tier) > corebank_internal.auth_kyc_rank(OLD.kyc_tier);
    IF NOT rising OR NEW.kyc_tier = 'ENHANCED' THEN
        IF NOT corebank_internal.auth_kyc_approval_valid((change.evidence ->> 'parkedChangeId')::uuid, NEW.id,
                                                          NEW.kyc_tier) THEN
            PERFORM corebank_internal.fail('CB403',
                'ENHANCED, and any fall of a tier, needs an approved identity.kyc_tier.set checked by a compliance officer');
        END IF;
    END IF;
    IF NOT rising THEN
        RETURN NEW;
    END IF;
    IF NEW.kyc_tier = 'BASIC' THEN
        -- A verified contact: a followed reset link, or the verified columns
        -- of issue 14 part 1 (read through to_jsonb: they may not exist).
        IF btrim(coalesce(NEW.first_name, '')) = '' OR btrim(coalesce(NEW.last_name, '')) = ''
           OR NOT (EXISTS (SELECT FROM corebank.auth_reset_tokens r WHERE r.user_id = NEW.id AND r.used_at IS NOT NULL)
                   OR to_jsonb(NEW) ->> 'email_verified_at' IS NOT NULL
                   OR to_jsonb(NEW) ->> 'phone_verified_at' IS NOT NULL)
        THEN
            PERFORM corebank_internal.fail('CB403', 'BASIC needs a first and last name and a verified contact');
        END IF;
        RETURN NEW;
    END IF;
    session := corebank_internal.auth_kyc_session_evidence((change.evidence ->> 'sessionId')::uuid, NEW.id);
    IF session IS NULL OR NOT (session ->> 'liveness')::bool OR NOT (session ->> 'document')::bool THEN
        PERFORM corebank_internal.fail('CB403',
            'STANDARD needs an approved verification session of this user with liveness and document checks');
    END IF;
    IF NEW.kyc_tier = 'ENHANCED' AND (OLD.kyc_tier <> 'STANDARD' OR NOT (session ->> 'facematch')::bool) THEN
        PERFORM corebank_internal.fail('CB403', 'ENHANCED needs STANDARD and a passed face match');
    END IF;
    RETURN NEW;
END
$fn$;
