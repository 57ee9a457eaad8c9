-- KYC status: VERIFIED with a verified, unexpired identity document, or
-- while the linked identity user holds STANDARD or above earned by a
-- verification session recorded as the customer's identity-document check
-- (one KYC truth with the identity service; a lowered tier ends it).
CREATE OR REPLACE FUNCTION corebank_internal.kyc_status(customer uuid) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT CASE WHEN EXISTS (
               SELECT FROM corebank.kyc_documents k
               WHERE k.customer_id = customer AND k.status = 'VERIFIED'
                 AND k.document_type IN ('NATIONAL_ID', 'PASSPORT', 'DRIVERS_LICENCE', 'COMPANY_REGISTRATION')
                 AND (k.expires_on IS NULL OR k.expires_on >= corebank_internal.business_today()))
             OR EXISTS (
               SELECT FROM corebank.kyc_checks k
               JOIN corebank.customers c ON c.id = k.customer_id
               JOIN corebank.auth_users u ON u.id = c.auth_user_id
               WHERE k.customer_id = customer AND k.check_type = 'IDENTITY_DOCUMENT'
                 AND k.source = 'VERIFICATION_SESSION' AND k.outcome = 'CLEAR'
                 AND u.kyc_tier IN ('STANDARD', 'ENHANCED'))
           THEN 'VERIFIED' ELSE 'PENDING' END
$fn$;
