-- The dispatch table's kyc.document.verify (pg/parked_changes.cpp):
-- checked when parked, applied when a second person approves.
CREATE FUNCTION corebank_internal.kyc_document_verify_validate(entity_id text, payload jsonb) RETURNS void
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    current_status text;
BEGIN
    IF entity_id !~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'entity_id: must be a KYC document id (UUID)');
    END IF;
    SELECT k.status INTO current_status FROM corebank.kyc_documents k WHERE k.id = entity_id::uuid;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'KYC document not found');
    END IF;
    IF current_status <> 'PENDING' THEN
        PERFORM corebank_internal.fail('CB409', format('The document is already %s', current_status));
    END IF;
    IF coalesce(payload ->> 'decision', '') NOT IN ('VERIFIED', 'REJECTED') THEN
        PERFORM corebank_internal.fail('CBV00', 'decision: must be VERIFIED or REJECTED');
    END IF;
END
$fn$;
