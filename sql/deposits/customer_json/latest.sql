CREATE FUNCTION corebank_internal.customer_json(customer uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', c.id, 'customerNumber', c.customer_number, 'type', c.type, 'status', c.status,
                'displayName', CASE WHEN c.type = 'INDIVIDUAL' THEN concat_ws(' ', c.first_name, c.middle_name, c.last_name)
                                    ELSE c.legal_name END,
                'firstName', c.first_name, 'middleName', c.middle_name, 'lastName', c.last_name,
                'dateOfBirth', c.date_of_birth, 'gender', c.gender, 'nationalId', c.national_id,
                'nationality', c.nationality, 'legalName', c.legal_name, 'tradingName', c.trading_name,
                'registrationNumber', c.registration_number, 'incorporationDate', c.incorporation_date,
                'countryOfIncorporation', c.country_of_incorporation, 'email', p.email, 'phone', p.phone,
                'branchId', c.branch_id, 'branchCode', b.code, 'signingMandate', c.signing_mandate,
                'riskCategory', c.risk_category, 'kycStatus', corebank_internal.kyc_status(c.id),
                'nextReviewDate', c.next_review_date, 'lastReviewedAt', corebank_internal.iso_utc(c.last_reviewed_at),
                'createdAt', corebank_internal.iso_utc(c.created_at), 'createdBy', c.created_by,
                'updatedAt', corebank_internal.iso_utc(c.updated_at))
            FROM corebank.customers c
            JOIN corebank.branches b ON b.id = c.branch_id
            LEFT JOIN corebank.customer_profiles p ON p.customer_id = c.id
            WHERE c.id = customer);
END
$fn$;
