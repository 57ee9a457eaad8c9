-- {checkTypes?: [...], providerMode?}: external checks through the provider
-- of EXTERNAL_KYC_PROVIDER_MODE (the tier passes it). Only the offline STUB
-- exists: it contacts nothing and records source STUB.
CREATE FUNCTION corebank.core_customers_kyc_checks_run(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    all_types CONSTANT text[] := ARRAY['IDENTITY_REGISTRY', 'SANCTIONS_PEP', 'CREDIT_BUREAU', 'ADVERSE_MEDIA'];
    mode text;
    wanted text[];
    item jsonb;
    c corebank.customers;
    results jsonb := '[]'::jsonb;
    k corebank.kyc_checks;
    check_type text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    mode := upper(coalesce(corebank_internal.json_trimmed(request, 'providerMode', 32), 'STUB'));
    IF request ? 'checkTypes' AND jsonb_typeof(request -> 'checkTypes') <> 'null' THEN
        IF jsonb_typeof(request -> 'checkTypes') <> 'array' OR jsonb_array_length(request -> 'checkTypes') NOT BETWEEN 1 AND 4 THEN
            PERFORM corebank_internal.fail('CBV00', 'checkTypes: must be an array of 1 to 4 check types');
        END IF;
        wanted := ARRAY[]::text[];
        FOR item IN SELECT jsonb_array_elements(request -> 'checkTypes') LOOP
            IF jsonb_typeof(item) <> 'string' OR NOT upper(item #>> '{}') = ANY (all_types) THEN
                PERFORM corebank_internal.fail('CBV00', 'checkTypes: each must be one of ' || array_to_string(all_types, ', '));
            END IF;
            IF NOT upper(item #>> '{}') = ANY (wanted) THEN
                wanted := wanted || upper(item #>> '{}');
            END IF;
        END LOOP;
    ELSE
        wanted := all_types;
    END IF;
    c := corebank_internal.require_customer(id);
    IF mode <> 'STUB' THEN
        PERFORM corebank_internal.fail('CB422',
            format('EXTERNAL_KYC_PROVIDER_MODE %s is not available; only STUB is implemented', mode));
    END IF;
    FOREACH check_type IN ARRAY wanted LOOP
        INSERT INTO corebank.kyc_checks AS x (customer_id, check_type, provider_mode, source, outcome, details,
                                              requested_by)
        VALUES (id, check_type, 'STUB', 'STUB', 'CLEAR',
                jsonb_build_object('message', 'Offline stub: no provider was contacted; the result is not a real check',
                                   'subject', CASE WHEN c.type = 'INDIVIDUAL'
                                                   THEN concat_ws(' ', c.first_name, c.middle_name, c.last_name)
                                                   ELSE c.legal_name END),
                actor)
        RETURNING x.* INTO k;
        results := results || jsonb_build_array(corebank_internal.kyc_check_json(k));
    END LOOP;
    RETURN results;
END
$fn$;
