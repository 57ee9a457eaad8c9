CREATE FUNCTION corebank_internal.kyc_document_json(document uuid) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', k.id, 'customerId', k.customer_id, 'documentType', k.document_type,
                              'documentNumber', k.document_number, 'issuingCountry', k.issuing_country,
                              'issuedOn', k.issued_on, 'expiresOn', k.expires_on, 'status', k.status,
                              'submittedBy', k.submitted_by, 'submittedAt', corebank_internal.iso_utc(k.submitted_at),
                              'decidedBy', k.decided_by, 'decidedAt', corebank_internal.iso_utc(k.decided_at),
                              'decisionNote', k.decision_note, 'parkedChangeId', k.parked_change_id)
    FROM corebank.kyc_documents k WHERE k.id = document
$fn$;
