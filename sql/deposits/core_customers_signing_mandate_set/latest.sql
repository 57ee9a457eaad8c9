-- UpdateSigningMandateRequest {signingMandate}: stored only.
CREATE OR REPLACE FUNCTION corebank.core_customers_signing_mandate_set(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    c corebank.customers;
    mandate text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    mandate := corebank_internal.json_enum_required(request, 'signingMandate', ARRAY['ANY_ONE', 'ANY_TWO', 'ALL']);
    c := corebank_internal.require_customer(id, true);
    IF c.type <> 'CORPORATE' THEN
        PERFORM corebank_internal.fail('CB422', 'A signing mandate applies to corporate customers only');
    END IF;
    UPDATE corebank.customers x SET signing_mandate = mandate, updated_at = now(), updated_by = actor WHERE x.id = id;
    RETURN corebank_internal.customer_json(id);
END
$fn$;
