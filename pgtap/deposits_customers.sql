-- deposits_customers.sql: customers and the CIF (issue 4).
--
-- Goal: individuals and corporates are created with their identity, which
-- never changes afterwards, whoever writes; the signing mandate is stored for
-- corporates only; the profile PATCH leaves omitted fields alone, clears null
-- and blank ones and refuses identity fields; the interaction log is
-- append-only; CIF cases go OPEN -> RESOLVED once, stamped; beneficial owners
-- are individuals with 25% or more or control, at most 100% in all;
-- beneficiaries resolve accounts of this bank. Method: call the API, then
-- try to break each rule with direct SQL.
BEGIN;
SELECT plan(88);
\ir helpers/deposits.sql

CREATE TEMP TABLE c AS SELECT corebank.core_customers_create(
    '{"type": "individual", "firstName": " Tendai ", "middleName": "T", "lastName": "Moyo", "dateOfBirth": "1990-04-02",
      "gender": "male", "nationalId": "63-123456a-42", "nationality": "zw", "email": "Tendai@Example.COM",
      "phone": "+263771234567",
      "profile": {"address": {"line1": "1 Samora Machel Ave", "city": "Harare", "country": "ZW"},
                  "employment": {"status": "employed", "employerName": "Delta", "occupation": "Engineer"},
                  "declaredIncome": {"amount": "1500.00", "frequency": "monthly"}}}',
    pg_temp.maker()) AS r;
CREATE TEMP TABLE ids AS SELECT (r ->> 'id')::uuid AS id FROM c;

-- Creation and the CustomerResponse.
SELECT ok((SELECT r ->> 'customerNumber' FROM c) ~ '^CU[0-9]{10}$', 'a customer number CU + 10 digits');
SELECT is((SELECT r ->> 'type' FROM c), 'INDIVIDUAL', 'enumerations are case-insensitive on input');
SELECT is((SELECT r ->> 'displayName' FROM c), 'Tendai T Moyo', 'the display name is the full name, trimmed');
SELECT is((SELECT r ->> 'nationalId' FROM c), '63-123456A-42', 'national ids are upper-cased');
SELECT is((SELECT r ->> 'email' FROM c), 'tendai@example.com', 'emails are lower-cased');
SELECT is((SELECT r ->> 'riskCategory' FROM c), 'LOW', 'risk defaults to LOW');
SELECT is((SELECT r ->> 'kycStatus' FROM c), 'PENDING', 'KYC is PENDING without a verified document');
SELECT is((SELECT r ->> 'branchCode' FROM c), 'HO', 'the home branch defaults to the head office');
SELECT is((SELECT r -> 'signingMandate' FROM c), 'null'::jsonb, 'an individual has no signing mandate');
SELECT is((SELECT (r ->> 'nextReviewDate')::date FROM c),
          (corebank.business_today() + interval '36 months')::date, 'a LOW customer is reviewed in 36 months');

-- Malformed creations.
SELECT throws_ok($$SELECT corebank.core_customers_create('{"firstName": "A"}', pg_temp.maker())$$,
                 'CBV00', 'type: is required (INDIVIDUAL or CORPORATE)', 'type is required');
SELECT throws_ok($$SELECT corebank.core_customers_create('{"type": "PERSON"}', pg_temp.maker())$$,
                 'CBV00', 'type: must be one of INDIVIDUAL, CORPORATE', 'an unknown type');
SELECT throws_ok($$SELECT pg_temp.customer(NULL)$$, 'CBV00', 'firstName: is required', 'an individual needs a first name');
SELECT throws_ok($$SELECT pg_temp.customer('A', NULL, '{"dateOfBirth": "2999-01-01"}')$$,
                 'CBV00', 'dateOfBirth: must be a past date after 1900-01-01', 'a birth date in the future');
SELECT throws_ok($$SELECT pg_temp.customer('A', NULL, '{"dateOfBirth": "1990-02-30"}')$$,
                 'CBV00', 'dateOfBirth: must be a date YYYY-MM-DD', 'an impossible date');
SELECT throws_ok($$SELECT pg_temp.customer('A', NULL, '{"legalName": "X"}')$$,
                 'CBV00', 'legalName: does not apply to a customer of type INDIVIDUAL', 'corporate fields on an individual');
SELECT throws_ok($$SELECT pg_temp.customer('A', NULL, '{"email": "not-an-email"}')$$,
                 'CBV00', 'email: must be an email address', 'a malformed email');
SELECT throws_ok($$SELECT pg_temp.customer('A', NULL, '{"nationality": "ZWE"}')$$,
                 'CBV00', 'nationality: must be at most 2 characters', 'a three-letter country');
SELECT throws_ok($$SELECT pg_temp.customer('B', '63-123456A-42')$$,
                 'CB409', 'A customer with this national id already exists', 'a national id is unique');
SELECT throws_ok($$SELECT corebank.core_customers_create('{"type": "INDIVIDUAL"}', NULL)$$,
                 'CBV00', 'actor: is required', 'the acting person is required');
SELECT throws_ok($$SELECT corebank.core_customers_get('00000000-0000-4000-8000-00000000dead')$$,
                 'CB404', 'Customer not found', 'an unknown customer');
-- Every read of a customer's own records checks the customer first.
SELECT throws_ok($$SELECT corebank.core_customers_kyc_get('00000000-0000-4000-8000-00000000dead')$$,
                 'CB404', 'Customer not found', 'the KYC of an unknown customer');
SELECT throws_ok($$SELECT corebank.core_customers_profile_get('00000000-0000-4000-8000-00000000dead')$$,
                 'CB404', 'Customer not found', 'the profile of an unknown customer');
SELECT throws_ok($$SELECT corebank.core_customers_beneficiaries_list('00000000-0000-4000-8000-00000000dead')$$,
                 'CB404', 'Customer not found', 'the beneficiaries of an unknown customer');
SELECT throws_ok($$SELECT corebank.core_customers_beneficial_owners_list('00000000-0000-4000-8000-00000000dead')$$,
                 'CB404', 'Customer not found', 'the beneficial owners of an unknown customer');
SELECT throws_ok($$SELECT corebank.core_customers_cases_list(NULL)$$, 'CBV00', 'id: is required',
                 'the cases of no customer');
SELECT is(corebank.core_customers_beneficiaries_list((SELECT id FROM ids)), '[]'::jsonb, 'no beneficiaries yet: []');
SELECT is(corebank.core_customers_beneficial_owners_list((SELECT id FROM ids)), '[]'::jsonb, 'no beneficial owners: []');
SELECT is(corebank.core_customers_cases_list((SELECT id FROM ids)), '[]'::jsonb, 'no cases yet: []');

-- Identity is frozen whoever writes.
SELECT throws_ok($$UPDATE corebank.customers SET first_name = 'Changed' WHERE id = (SELECT id FROM ids)$$,
                 'CB422', 'a customer''s identity field first_name cannot change', 'direct SQL cannot rename');
SELECT throws_ok($$UPDATE corebank.customers SET date_of_birth = '1991-01-01' WHERE id = (SELECT id FROM ids)$$,
                 'CB422', 'a customer''s identity field date_of_birth cannot change', 'nor change the birth date');
SELECT throws_ok($$DELETE FROM corebank.customers WHERE id = (SELECT id FROM ids)$$,
                 'CB422', 'customers cannot be deleted; make them INACTIVE', 'customers are never deleted');

-- Corporates and the signing mandate (stored only).
CREATE TEMP TABLE corp AS SELECT pg_temp.corporate() AS id;
SELECT is((SELECT corebank.core_customers_get((SELECT id FROM corp)) ->> 'displayName'), 'Acme Mining (Pvt) Ltd',
          'a corporate is shown by its legal name');
SELECT throws_ok($$SELECT pg_temp.corporate('Other', 'reg-1')$$, 'CB409',
                 'A customer with this registration number already exists', 'registration numbers are unique');
SELECT is((SELECT corebank.core_customers_signing_mandate_set((SELECT id FROM corp), '{"signingMandate": "any_two"}',
                                                              pg_temp.maker()) ->> 'signingMandate'),
          'ANY_TWO', 'PUT signing-mandate stores ANY_TWO');
SELECT throws_ok($$SELECT corebank.core_customers_signing_mandate_set((SELECT id FROM corp), '{"signingMandate": "SOME"}', pg_temp.maker())$$,
                 'CBV00', 'signingMandate: must be one of ANY_ONE, ANY_TWO, ALL', 'an unknown mandate');
SELECT throws_ok($$SELECT corebank.core_customers_signing_mandate_set((SELECT id FROM ids), '{"signingMandate": "ALL"}', pg_temp.maker())$$,
                 'CB422', 'A signing mandate applies to corporate customers only', 'no mandate for an individual');
SELECT throws_ok($$UPDATE corebank.customers SET signing_mandate = 'ALL' WHERE id = (SELECT id FROM ids)$$,
                 '23514', NULL, 'not even by direct SQL (CHECK)');

-- The profile PATCH.
SELECT is((SELECT corebank.core_customers_profile_get((SELECT id FROM ids)) -> 'declaredIncome'),
          '{"amount": "1500.00", "currency": "USD", "frequency": "MONTHLY", "amountMinor": 150000}'::jsonb,
          'a declared income takes the base currency by default');
CREATE TEMP TABLE patched AS SELECT corebank.core_customers_profile_patch((SELECT id FROM ids),
    '{"address": {"city": "Bulawayo", "line1": "  "}, "employment": null, "phone": ""}', pg_temp.operator()) AS r;
SELECT is((SELECT r -> 'address' ->> 'city' FROM patched), 'Bulawayo', 'a given field is set');
SELECT is((SELECT r -> 'address' -> 'line1' FROM patched), 'null'::jsonb, 'a blank field is cleared');
SELECT is((SELECT r -> 'address' ->> 'country' FROM patched), 'ZW', 'an omitted nested field is left alone');
SELECT is((SELECT r -> 'employment' FROM patched), '{"status": null, "occupation": null, "employerName": null}'::jsonb,
          'a null object clears all its fields');
SELECT is((SELECT r -> 'phone' FROM patched), 'null'::jsonb, 'a blank top-level field is cleared');
SELECT is((SELECT r ->> 'email' FROM patched), 'tendai@example.com', 'an omitted top-level field is left alone');
SELECT is((SELECT r -> 'declaredIncome' ->> 'amountMinor' FROM patched), '150000', 'omitted income is left alone');
SELECT is((SELECT r ->> 'updatedBy' FROM patched), pg_temp.operator()::text, 'the patch records who made it');
SELECT is((SELECT corebank.core_customers_profile_patch((SELECT id FROM ids), '{"declaredIncome": {"amountMinor": null}}',
                                                        pg_temp.operator()) -> 'declaredIncome' -> 'currency'),
          'null'::jsonb, 'clearing the income amount clears its currency and frequency');
SELECT throws_ok($$SELECT corebank.core_customers_profile_patch((SELECT id FROM ids), '{"firstName": "Other"}', pg_temp.operator())$$,
                 'CBV00', 'firstName: identity fields cannot be changed through the profile', 'identity fields are refused');
SELECT throws_ok($$SELECT corebank.core_customers_profile_patch((SELECT id FROM ids), '{"dateOfBirth": "1990-01-01"}', pg_temp.operator())$$,
                 'CBV00', 'dateOfBirth: identity fields cannot be changed through the profile', 'the birth date too');
SELECT throws_ok($$SELECT corebank.core_customers_profile_patch((SELECT id FROM ids), '{"shoeSize": 42}', pg_temp.operator())$$,
                 'CBV00', 'shoeSize: unknown field', 'unknown fields are refused');
SELECT throws_ok($$SELECT corebank.core_customers_profile_patch((SELECT id FROM ids), '{"address": {"planet": "Mars"}}', pg_temp.operator())$$,
                 'CBV00', 'address.planet: unknown field', 'unknown nested fields are refused');
SELECT throws_ok($$SELECT corebank.core_customers_profile_patch((SELECT id FROM ids), '{"employment": {"status": "ASTRONAUT"}}', pg_temp.operator())$$,
                 'CBV00', 'employment.status: must be one of EMPLOYED, SELF_EMPLOYED, UNEMPLOYED, RETIRED, STUDENT',
                 'an unknown employment status');

-- The interaction log: append-only.
CREATE TEMP TABLE i AS SELECT corebank.core_customers_interaction_add((SELECT id FROM ids),
    '{"channel": "phone", "interactionType": "complaint", "summary": "Card not received"}', pg_temp.operator()) AS r;
SELECT is((SELECT r ->> 'recordedBy' FROM i), pg_temp.operator()::text, 'the interaction records who logged it');
SELECT is((SELECT corebank.core_customers_interactions_list((SELECT id FROM ids), 0, 10) ->> 'totalElements'), '1',
          'the log lists it');
SELECT throws_ok($$UPDATE corebank.customer_interactions SET summary = 'edited'$$,
                 '42501', 'corebank.customer_interactions is append-only', 'no interaction is edited');
SELECT throws_ok($$DELETE FROM corebank.customer_interactions$$,
                 '42501', 'corebank.customer_interactions is append-only', 'no interaction is deleted');
SELECT throws_ok($$TRUNCATE corebank.customer_interactions$$,
                 '42501', 'corebank.customer_interactions is append-only', 'the log is not truncated');
SELECT throws_ok($$SELECT corebank.core_customers_interaction_add((SELECT id FROM ids), '{"interactionType": "ENQUIRY"}', pg_temp.operator())$$,
                 'CBV00', 'summary: is required', 'a summary is required');
SELECT throws_ok($$SELECT corebank.core_customers_interaction_add((SELECT id FROM ids), '{"interactionType": "ENQUIRY", "summary": "x", "occurredAt": "2999-01-01T00:00:00Z"}', pg_temp.operator())$$,
                 'CBV00', 'occurredAt: must not be in the future', 'no interaction in the future');

-- CIF cases: OPEN -> RESOLVED, stamped; RESOLVED is terminal.
CREATE TEMP TABLE k AS SELECT corebank.core_customers_case_open((SELECT id FROM ids), '{"subject": "Address dispute"}',
                                                                pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'status' || ' ' || (r ->> 'openedBy') FROM k), 'OPEN ' || pg_temp.maker(),
          'a case opens OPEN with its opener');
CREATE TEMP TABLE kr AS SELECT corebank.core_customers_case_resolve((SELECT id FROM ids), (SELECT (r ->> 'id')::uuid FROM k),
                                                                    '{"resolution": "Confirmed"}', pg_temp.checker()) AS r;
SELECT ok((SELECT r ->> 'status' = 'RESOLVED' AND r ->> 'resolvedBy' = pg_temp.checker()::text AND r ->> 'resolvedAt' IS NOT NULL
           AND r ->> 'openedBy' = pg_temp.maker()::text FROM kr), 'resolving stamps actor and time, the opening kept');
SELECT throws_ok($$SELECT corebank.core_customers_case_resolve((SELECT id FROM ids), (SELECT (r ->> 'id')::uuid FROM k), '{"resolution": "Again"}', pg_temp.checker())$$,
                 'CB409', 'The case is already RESOLVED', 'resolving twice is a conflict');
SELECT throws_ok($$UPDATE corebank.customer_cases SET status = 'OPEN', resolved_by = NULL, resolved_at = NULL, resolution = NULL$$,
                 'CB409', 'a RESOLVED case is terminal', 'direct SQL cannot reopen a case');
CREATE TEMP TABLE k2 AS SELECT corebank.core_customers_case_open((SELECT id FROM ids), '{"subject": "Other"}', pg_temp.maker()) AS r;
SELECT throws_ok($$UPDATE corebank.customer_cases SET subject = 'Renamed' WHERE id = (SELECT (r ->> 'id')::uuid FROM k2)$$,
                 'CB422', 'a case is changed only by resolving it', 'an open case''s opening is frozen');

-- Beneficial owners: 25% or more, or control; at most 100%; individuals of corporates.
SELECT is((SELECT corebank.core_customers_beneficial_owner_add((SELECT id FROM corp),
               jsonb_build_object('ownerCustomerId', (SELECT id FROM ids), 'ownershipPercent', '60'), pg_temp.maker())
           ->> 'ownershipBp'), '6000', 'a 60% owner is recorded (basis points)');
SELECT throws_ok($$SELECT corebank.core_customers_beneficial_owner_add((SELECT id FROM corp), '{"fullName": "Small Holder", "ownershipPercent": 10}', pg_temp.maker())$$,
                 'CB422', 'A beneficial owner owns 25% or more, or has control', 'under 25% without control is refused');
SELECT is((SELECT corebank.core_customers_beneficial_owner_add((SELECT id FROM corp),
               '{"fullName": "Director", "ownershipPercent": 5, "hasControl": true}', pg_temp.maker()) ->> 'hasControl'),
          'true', 'control qualifies below 25%');
SELECT throws_ok($$SELECT corebank.core_customers_beneficial_owner_add((SELECT id FROM corp), '{"fullName": "Big", "ownershipPercent": "40"}', pg_temp.maker())$$,
                 'CB422', 'Beneficial ownership would exceed 100% (65.00% is recorded)', 'the owners hold at most 100%');
SELECT throws_ok($$SELECT corebank.core_customers_beneficial_owner_add((SELECT id FROM ids), '{"fullName": "X", "ownershipPercent": 30}', pg_temp.maker())$$,
                 'CB422', 'Beneficial owners are recorded for corporate customers only', 'individuals have no beneficial owners');
SELECT throws_ok($$INSERT INTO corebank.beneficial_owners (customer_id, full_name, ownership_bp, created_by)
                   VALUES ((SELECT id FROM corp), 'Sneaky', 5000, pg_temp.maker())$$,
                 'CB422', 'beneficial ownership would exceed 100%', 'direct SQL cannot pass 100% either');
SELECT throws_ok($$INSERT INTO corebank.beneficial_owners (customer_id, full_name, ownership_bp, created_by)
                   VALUES ((SELECT id FROM corp), 'Tiny', 100, pg_temp.maker())$$,
                 '23514', NULL, 'nor record an owner below the threshold');
SELECT is((SELECT jsonb_array_length(corebank.core_customers_beneficial_owners_list((SELECT id FROM corp)))), 2,
          'two owners are listed');

-- Beneficiaries: an account of this bank is resolved, another bank needs a currency.
CREATE TEMP TABLE acct AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-STD') AS id;
SELECT is((SELECT corebank.core_customers_beneficiary_add((SELECT id FROM corp),
               jsonb_build_object('name', 'Tendai', 'accountNumber',
                                  (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM acct))),
               pg_temp.maker()) ->> 'accountId'),
          (SELECT id::text FROM acct), 'a beneficiary in this bank resolves to its account');
SELECT throws_ok($$SELECT corebank.core_customers_beneficiary_add((SELECT id FROM corp), '{"name": "X", "accountNumber": "12345", "bankSwiftCode": "CBZKZWHX"}', pg_temp.maker())$$,
                 'CBV00', 'currency: is required for an account at another bank', 'another bank needs a currency');

-- Removal keeps the row, inactive and stamped; it is listed no more and cannot be removed twice.
CREATE TEMP TABLE ben AS SELECT (b ->> 'id')::uuid AS id FROM (SELECT corebank.core_customers_beneficiary_add((SELECT id FROM corp),
    '{"name": "Other bank", "accountNumber": "999", "bankSwiftCode": "CBZKZWHX", "currency": "USD"}', pg_temp.maker()) AS b) x;
SELECT throws_ok($$SELECT corebank.core_customers_beneficiary_remove((SELECT id FROM corp), (SELECT id FROM ben), NULL)$$,
                 'CBV00', 'actor: is required', 'removing a beneficiary needs the acting person');
SELECT throws_ok($$SELECT corebank.core_customers_beneficiary_remove((SELECT id FROM ids), (SELECT id FROM ben), pg_temp.maker())$$,
                 'CB404', 'Beneficiary not found', 'nor can another customer remove it');
CREATE TEMP TABLE ben_removed AS SELECT corebank.core_customers_beneficiary_remove((SELECT id FROM corp), (SELECT id FROM ben),
                                                                                   pg_temp.maker()) AS r;
SELECT ok((SELECT r @> '{"active": false, "name": "Other bank", "currency": "USD"}' AND r ->> 'removedAt' IS NOT NULL
           FROM ben_removed), 'a removed beneficiary is answered inactive, with its fields and removal time');
SELECT ok((SELECT NOT active AND removed_by = pg_temp.maker() FROM corebank.beneficiaries WHERE id = (SELECT id FROM ben)),
          'the row stays, stamped with who removed it');
SELECT is(jsonb_array_length(corebank.core_customers_beneficiaries_list((SELECT id FROM corp))), 1, 'and is listed no more');
SELECT throws_ok($$SELECT corebank.core_customers_beneficiary_remove((SELECT id FROM corp), (SELECT id FROM ben), pg_temp.maker())$$,
                 'CB404', 'Beneficiary not found', 'a beneficiary is removed once');
CREATE TEMP TABLE owner_removed AS SELECT corebank.core_customers_beneficial_owner_remove((SELECT id FROM corp),
    (SELECT id FROM corebank.beneficial_owners WHERE customer_id = (SELECT id FROM corp) AND has_control AND active), pg_temp.maker()) AS r;
SELECT ok((SELECT r @> jsonb_build_object('active', false, 'hasControl', true, 'removedBy', pg_temp.maker()) FROM owner_removed),
          'a beneficial owner is removed the same way');
SELECT throws_ok($$SELECT corebank.core_customers_beneficial_owner_remove((SELECT id FROM corp), (SELECT (r ->> 'id')::uuid FROM owner_removed), pg_temp.maker())$$,
                 'CB404', 'Beneficial owner not found', 'once');

-- A required enumeration member names its values when absent, and json_enum's rule when wrong.
SELECT throws_ok($$SELECT corebank.core_customers_kyc_risk_set((SELECT id FROM corp), '{"reason": "x"}', pg_temp.maker())$$,
                 'CBV00', 'riskCategory: is required (LOW, MEDIUM, HIGH or PROHIBITED)', 'a risk category is required');
SELECT throws_ok($$SELECT corebank.core_customers_signing_mandate_set((SELECT id FROM corp), '{"signingMandate": " "}', pg_temp.maker())$$,
                 'CBV00', 'signingMandate: is required (ANY_ONE, ANY_TWO or ALL)', 'a blank mandate is absent');
SELECT throws_ok($$SELECT corebank.core_customers_signing_mandate_set((SELECT id FROM corp), '{"signingMandate": "SOME"}', pg_temp.maker())$$,
                 'CBV00', 'signingMandate: must be one of ANY_ONE, ANY_TWO, ALL', 'an unknown mandate is refused');
SELECT is(corebank_internal.json_enum_required('{"k": "b"}', 'k', ARRAY['A', 'B']), 'B', 'json_enum_required returns the value');
SELECT throws_ok($$SELECT corebank_internal.json_enum_required('{}', 'k', ARRAY['A', 'B'])$$,
                 'CBV00', 'k: is required (A or B)', 'two values are named with "or"');

SELECT * FROM finish();
ROLLBACK;
