CREATE FUNCTION corebank_internal.kyc_document_verify_apply(entity_id text, payload jsonb, checker uuid,
                                                            change_id uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
BEGIN
    UPDATE corebank.kyc_documents k
    SET status = payload ->> 'decision', decided_by = checker, decided_at = now(),
        decision_note = payload ->> 'note', parked_change_id = change_id
    WHERE k.id = entity_id::uuid AND k.status = 'PENDING';
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB409', 'The document is no longer PENDING');
    END IF;
    RETURN corebank_internal.kyc_document_json(entity_id::uuid);
END
$fn$;
