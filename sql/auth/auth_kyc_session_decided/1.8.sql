-- AFTER UPDATE ON verify_sessions, when a session started by an identity
-- user completes: an approved session with passed liveness and document
-- checks raises the user below STANDARD to STANDARD, in the transaction that
-- records the decision (verify_hosted_submit_finish), so the next access
-- token carries it. A declined or review decision changes nothing.
CREATE FUNCTION corebank_internal.auth_kyc_session_decided() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    evidence jsonb := corebank_internal.auth_kyc_session_evidence(NEW.id, NEW.auth_user_id);
    tier text;
BEGIN
    IF evidence IS NULL OR NOT (evidence ->> 'liveness')::bool OR NOT (evidence ->> 'document')::bool THEN
        RETURN NULL;
    END IF;
    SELECT u.kyc_tier INTO tier FROM corebank.auth_users u WHERE u.id = NEW.auth_user_id FOR UPDATE;
    IF corebank_internal.auth_kyc_rank(tier) < corebank_internal.auth_kyc_rank('STANDARD') THEN
        PERFORM corebank_internal.auth_kyc_tier_move(NEW.auth_user_id, 'STANDARD', 'verification_session', evidence,
                                                     NULL, NULL);
    END IF;
    RETURN NULL;
END
$fn$;
