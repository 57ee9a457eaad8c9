-- Registers an endpoint (the CLI's webhook add and POST /v1/webhook-endpoints
-- both call this, through one function of the tier). The tier has checked
-- the address and sealed the secret; the database checks the shapes again.
CREATE FUNCTION corebank.verify_webhook_endpoint_create(url text, description text, events text[], secret_sealed bytea)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    created uuid;
BEGIN
    IF url IS NULL OR url !~ '^https?://[^\s/]+[^\s]*$' OR length(url) > 2048 THEN
        PERFORM corebank_internal.fail('CBV00', 'url: must be an absolute http(s) URL of at most 2048 characters');
    END IF;
    IF description IS NOT NULL AND (length(description) NOT BETWEEN 1 AND 500 OR description ~ '[[:cntrl:]]') THEN
        PERFORM corebank_internal.fail('CBV00', 'description: must be 1 to 500 characters without control characters');
    END IF;
    -- The types of docs/verification.md and docs/identity.md ("Outbound events").
    IF events IS NOT NULL AND (cardinality(events) NOT BETWEEN 1 AND 14 OR array_position(events, NULL) IS NOT NULL
                               OR NOT events <@ ARRAY['session.completed', 'session.cancelled', 'session.expired',
                                                      'identity.user.registered', 'identity.user.suspended',
                                                      'identity.user.reinstated', 'identity.user.deactivated',
                                                      'identity.user.locked', 'identity.user.email_changed',
                                                      'identity.user.phone_changed', 'identity.user.kyc_tier_changed',
                                                      'identity.password.changed', 'identity.mfa.enabled',
                                                      'identity.mfa.disabled']
                               OR cardinality(events) <> (SELECT count(DISTINCT x) FROM unnest(events) x)) THEN
        PERFORM corebank_internal.fail('CBV00', 'events: must be 1 to 14 distinct known event types');
    END IF;
    IF secret_sealed IS NULL OR length(secret_sealed) NOT BETWEEN 29 AND 1024 THEN
        PERFORM corebank_internal.fail('CBV00', 'secret_sealed: must be a sealed secret (29 to 1024 bytes)');
    END IF;
    INSERT INTO corebank.verify_webhook_endpoints AS e (url, description, events, secret_sealed)
    VALUES (url, description, events, secret_sealed)
    RETURNING e.id INTO created;
    RETURN corebank_internal.verify_webhook_endpoint_json(created);
END
$fn$;
