-- The customer an identifier names. kind is the API name (userId needs
-- platform); the value is normalised the way ingest does it. Returns
-- {"outcome": "found", "customer": {...}} or {"outcome": o} with o one of
-- not_found, unknown_platform (userId on a platform the registry never had),
-- invalid_value (e.g. a phone that is no phone number).
CREATE FUNCTION corebank.events_customer_lookup(kind text, value text, platform text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    home text := (SELECT s.home_country_calling_code FROM corebank.event_settings s);
    identifier text[];
    survivor uuid;
BEGIN
    IF kind IS NULL OR kind NOT IN ('userId', 'zbIdSubject', 'phone', 'email', 'nationalId', 'sessionId') THEN
        PERFORM corebank_internal.fail('CBV00', 'kind: must be userId, zbIdSubject, phone, email, nationalId or sessionId');
    END IF;
    IF value IS NULL OR length(value) NOT BETWEEN 1 AND 320 THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be 1 to 320 characters', kind));
    END IF;
    IF kind = 'userId' AND (platform IS NULL OR length(platform) NOT BETWEEN 1 AND 60) THEN
        PERFORM corebank_internal.fail('CBV00', 'platform: is required with userId');
    END IF;
    IF kind = 'userId' AND NOT EXISTS (SELECT FROM corebank.event_platforms p WHERE p.name = platform) THEN
        RETURN jsonb_build_object('outcome', 'unknown_platform');
    END IF;
    identifier := corebank_internal.events_identifier(kind, value, platform, home);
    IF identifier IS NULL THEN
        RETURN jsonb_build_object('outcome', 'invalid_value');
    END IF;
    SELECT coalesce(c.merged_into, c.id) INTO survivor
    FROM corebank.customer_identifiers i
    JOIN corebank.customers_graph c ON c.id = i.customer_id
    WHERE i.kind = identifier[1] AND i.value = identifier[2];
    IF survivor IS NULL THEN
        RETURN jsonb_build_object('outcome', 'not_found');
    END IF;
    RETURN jsonb_build_object('outcome', 'found', 'customer', corebank_internal.events_customer_json(survivor));
END
$fn$;
