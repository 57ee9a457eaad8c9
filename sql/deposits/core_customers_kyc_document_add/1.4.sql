-- {documentType, documentNumber, issuingCountry?, issuedOn?, expiresOn?}: PENDING.
CREATE FUNCTION corebank.core_customers_kyc_document_add(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    k corebank.kyc_documents;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    PERFORM corebank_internal.require_customer(id);
    k.document_type := corebank_internal.json_enum(request, 'documentType',
        ARRAY['NATIONAL_ID', 'PASSPORT', 'DRIVERS_LICENCE', 'COMPANY_REGISTRATION', 'PROOF_OF_ADDRESS',
              'TAX_CERTIFICATE', 'OTHER']);
    k.document_number := upper(corebank_internal.json_trimmed(request, 'documentNumber', 50));
    k.issuing_country := corebank_internal.json_country(request, 'issuingCountry');
    k.issued_on := corebank_internal.json_date(request, 'issuedOn');
    k.expires_on := corebank_internal.json_date(request, 'expiresOn');
    IF k.document_type IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'documentType: is required');
    END IF;
    IF k.document_number IS NULL OR k.document_number !~ '^[A-Z0-9 /.-]{1,50}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'documentNumber: must be 1 to 50 of A-Z 0-9 space / . -');
    END IF;
    IF k.issued_on > corebank_internal.business_today() THEN
        PERFORM corebank_internal.fail('CBV00', 'issuedOn: must not be in the future');
    END IF;
    IF k.expires_on <= k.issued_on THEN
        PERFORM corebank_internal.fail('CBV00', 'expiresOn: must be after issuedOn');
    END IF;
    INSERT INTO corebank.kyc_documents AS x (customer_id, document_type, document_number, issuing_country, issued_on,
                                             expires_on, submitted_by)
    VALUES (id, k.document_type, k.document_number, k.issuing_country, k.issued_on, k.expires_on, actor)
    ON CONFLICT DO NOTHING
    RETURNING x.* INTO k;
    IF k.id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'This document is already recorded for the customer');
    END IF;
    RETURN corebank_internal.kyc_document_json(k.id);
END
$fn$;
