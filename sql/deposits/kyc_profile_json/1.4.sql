CREATE FUNCTION corebank_internal.kyc_profile_json(customer uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'customerId', c.id, 'riskCategory', c.risk_category, 'riskReason', c.risk_reason,
                'kycStatus', corebank_internal.kyc_status(c.id), 'nextReviewDate', c.next_review_date,
                'lastReviewedAt', corebank_internal.iso_utc(c.last_reviewed_at), 'lastReviewedBy', c.last_reviewed_by,
                'documents', (SELECT coalesce(jsonb_agg(corebank_internal.kyc_document_json(k.id)
                                                        ORDER BY k.submitted_at, k.id), '[]'::jsonb)
                              FROM corebank.kyc_documents k WHERE k.customer_id = c.id),
                'checks', (SELECT coalesce(jsonb_agg(corebank_internal.kyc_check_json(k) ORDER BY k.requested_at DESC, k.id),
                                           '[]'::jsonb)
                           FROM (SELECT * FROM corebank.kyc_checks x WHERE x.customer_id = c.id
                                 ORDER BY x.requested_at DESC, x.id LIMIT 50) k))
            FROM corebank.customers c WHERE c.id = customer);
END
$fn$;
