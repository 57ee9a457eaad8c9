-- {decision: VERIFIED | REJECTED, note?}: parks kyc.document.verify; a
-- second person's approval applies it.
CREATE OR REPLACE FUNCTION corebank.core_customers_kyc_document_verify_request(document_id uuid, request jsonb, actor uuid)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    decision text;
    note text;
    summary text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    IF document_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    decision := corebank_internal.json_enum(request, 'decision', ARRAY['VERIFIED', 'REJECTED']);
    note := corebank_internal.json_trimmed(request, 'note', 1000);
    IF decision IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'decision: is required (VERIFIED or REJECTED)');
    END IF;
    SELECT format('Mark %s %s of customer %s as %s', k.document_type, k.document_number, c.customer_number, decision)
    INTO summary
    FROM corebank.kyc_documents k JOIN corebank.customers c ON c.id = k.customer_id
    WHERE k.id = document_id AND corebank.branch_visible(c.branch_id);
    -- Unknown, or its customer is of another branch than a scoped member's: the
    -- answer kyc_document_verify_validate gives an unknown id.
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'KYC document not found');
    END IF;
    RETURN corebank.parked_change_create('kyc.document.verify', 'kyc_document', document_id::text,
                                         jsonb_build_object('decision', decision, 'note', note),
                                         summary, actor);
END
$fn$;
