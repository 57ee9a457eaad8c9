-- AFTER INSERT on corebank.auth_kyc_tier_changes: a KYC tier move is
-- recorded there rather than in auth_audit (with its evidence), so its
-- outbound event identity.user.kyc_tier_changed comes from that row, in the
-- move's transaction, through the same enqueue as every identity event.
CREATE FUNCTION corebank_internal.auth_kyc_tier_outbound() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    PERFORM corebank_internal.auth_outbound_event_enqueue('identity.user.kyc_tier_changed', NEW.user_id);
    RETURN NULL;
END
$fn$;
