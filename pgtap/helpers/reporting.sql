-- helpers/reporting.sql: one customer's personal records in every table the
-- masking views of corebank_reports read (issue 15; docs/reporting.md), with
-- values a test can look for in what a view shows. On top of
-- helpers/deposits.sql (maker, operator).
--
-- pg_temp.personal_records(customer) writes one row per table (the profile
-- made with the customer is overwritten) and answers
-- (view, id): the view of corebank_reports that shows the row and its id
-- (customer_profiles: the customer's id).
CREATE FUNCTION pg_temp.personal_records(customer uuid) RETURNS TABLE (view text, id uuid)
    LANGUAGE plpgsql
    AS $f$
DECLARE
    company uuid;
BEGIN
    INSERT INTO corebank.customer_profiles (customer_id, email, phone, address_line1, city, province, postal_code,
                                            country, employment_status, employer_name, occupation,
                                            declared_income_minor, income_currency, income_frequency, updated_by)
    VALUES (customer, 'tendai.moyo@example.com', '+263771234567', 'House 12 Samora Machel Avenue', 'Harare',
            'Harare Metropolitan', '00263', 'ZW', 'EMPLOYED', 'Zimplats Holdings', 'Engineer', 150000, 'USD', 'MONTHLY',
            pg_temp.operator())
    ON CONFLICT (customer_id) DO UPDATE SET email = EXCLUDED.email, phone = EXCLUDED.phone,
        address_line1 = EXCLUDED.address_line1, city = EXCLUDED.city, province = EXCLUDED.province,
        postal_code = EXCLUDED.postal_code, country = EXCLUDED.country, employment_status = EXCLUDED.employment_status,
        employer_name = EXCLUDED.employer_name, occupation = EXCLUDED.occupation,
        declared_income_minor = EXCLUDED.declared_income_minor, income_currency = EXCLUDED.income_currency,
        income_frequency = EXCLUDED.income_frequency, updated_by = EXCLUDED.updated_by;
    view := 'customer_profiles'; id := customer; RETURN NEXT;
    INSERT INTO corebank.kyc_documents (customer_id, document_type, document_number, issuing_country, issued_on,
                                        expires_on, submitted_by)
    VALUES (customer, 'NATIONAL_ID', '63-1234567-A-42', 'ZW', '2015-01-01', '2035-01-01', pg_temp.operator())
    RETURNING kyc_documents.id INTO id;
    view := 'kyc_documents'; RETURN NEXT;
    INSERT INTO corebank.kyc_reviews (customer_id, risk_category, notes, next_review_date, reviewed_by)
    VALUES (customer, 'LOW', 'Lives with her mother in Borrowdale', '2029-03-02', pg_temp.operator())
    RETURNING kyc_reviews.id INTO id;
    view := 'kyc_reviews'; RETURN NEXT;
    INSERT INTO corebank.kyc_checks (customer_id, check_type, provider_mode, source, outcome, details, requested_by)
    VALUES (customer, 'SANCTIONS_PEP', 'SIMULATED', 'MANUAL', 'CLEAR', '{"matchedName": "Tendai Moyo"}',
            pg_temp.operator())
    RETURNING kyc_checks.id INTO id;
    view := 'kyc_checks'; RETURN NEXT;
    INSERT INTO corebank.beneficiaries (customer_id, name, account_number, bank_swift_code, currency, nickname,
                                        created_by)
    VALUES (customer, 'Chipo Ndlovu', '1234567890', 'ABCDZWHX', 'USD', 'Little sister', pg_temp.operator())
    RETURNING beneficiaries.id INTO id;
    view := 'beneficiaries'; RETURN NEXT;
    -- A beneficial owner is a company's (of the customer's branch), named by a person.
    company := (corebank.core_customers_create(jsonb_build_object(
                    'type', 'CORPORATE', 'legalName', 'Acme Mining (Pvt) Ltd',
                    'registrationNumber', 'REG-' || left(gen_random_uuid()::text, 8),
                    'branchId', (SELECT c.branch_id FROM corebank.customers c WHERE c.id = customer)),
                pg_temp.maker()) ->> 'id')::uuid;
    INSERT INTO corebank.beneficial_owners (customer_id, full_name, date_of_birth, nationality, national_id,
                                            ownership_bp, has_control, created_by)
    VALUES (company, 'Farai Chikore', '1975-06-30', 'ZW', '08-7654321-B-18', 5000, true, pg_temp.operator())
    RETURNING beneficial_owners.id INTO id;
    view := 'beneficial_owners'; RETURN NEXT;
    INSERT INTO corebank.customer_cases (customer_id, subject, description, category, opened_by)
    VALUES (customer, 'Card swallowed at the Avondale ATM', 'Customer says the machine kept the card', 'CARDS',
            pg_temp.operator())
    RETURNING customer_cases.id INTO id;
    view := 'customer_cases'; RETURN NEXT;
    INSERT INTO corebank.customer_interactions (customer_id, channel, interaction_type, summary, notes, occurred_at,
                                                recorded_by)
    VALUES (customer, 'BRANCH', 'ENQUIRY', 'Asked about a home loan', 'Salary paid on the 25th', now(),
            pg_temp.operator())
    RETURNING customer_interactions.id INTO id;
    view := 'customer_interactions'; RETURN NEXT;
END
$f$;
