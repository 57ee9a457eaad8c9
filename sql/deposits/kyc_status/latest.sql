-- KYC status: VERIFIED with a verified, unexpired identity document.
CREATE FUNCTION corebank_internal.kyc_status(customer uuid) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT CASE WHEN EXISTS (
               SELECT FROM corebank.kyc_documents k
               WHERE k.customer_id = customer AND k.status = 'VERIFIED'
                 AND k.document_type IN ('NATIONAL_ID', 'PASSPORT', 'DRIVERS_LICENCE', 'COMPANY_REGISTRATION')
                 AND (k.expires_on IS NULL OR k.expires_on >= corebank_internal.business_today()))
           THEN 'VERIFIED' ELSE 'PENDING' END
$fn$;
