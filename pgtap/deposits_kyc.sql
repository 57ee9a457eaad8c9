-- deposits_kyc.sql: KYC basics (issue 4).
--
-- Goal: the risk category schedules periodic reviews and PROHIBITED blocks
-- accounts; identity documents are verified only through maker-checker
-- (kyc.document.verify), never by the maker, once; external checks go
-- through the offline stub only and say source STUB. Method: call the API,
-- approve with a second person, and try the forbidden paths with direct SQL.
BEGIN;
SELECT plan(30);
\ir helpers/deposits.sql

SELECT pg_temp.today('2026-06-15');
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Rudo', 'N-1') AS id;

-- Risk category and periodic review.
SELECT is((SELECT corebank.core_customers_kyc_risk_set((SELECT id FROM ids), '{"riskCategory": "high", "reason": "PEP"}',
                                                       pg_temp.maker()) ->> 'nextReviewDate'),
          '2027-06-15', 'HIGH risk is reviewed within 12 months');
SELECT is((SELECT corebank.core_customers_kyc_risk_set((SELECT id FROM ids), '{"riskCategory": "MEDIUM"}',
                                                       pg_temp.maker()) ->> 'nextReviewDate'),
          '2028-06-15', 'MEDIUM within 24 months');
SELECT throws_ok($$SELECT corebank.core_customers_kyc_risk_set((SELECT id FROM ids), '{"riskCategory": "SEVERE"}', pg_temp.maker())$$,
                 'CBV00', 'riskCategory: must be one of LOW, MEDIUM, HIGH, PROHIBITED', 'an unknown category');
SELECT is((SELECT corebank.core_customers_kyc_review_record((SELECT id FROM ids), '{"notes": "ok", "nextReviewDate": "2027-01-01"}',
                                                            pg_temp.checker()) ->> 'lastReviewedBy'),
          pg_temp.checker()::text, 'a review records who did it');
SELECT is((SELECT next_review_date FROM corebank.customers WHERE id = (SELECT id FROM ids)), DATE '2027-01-01',
          'a review may bring the next one forward');
SELECT throws_ok($$SELECT corebank.core_customers_kyc_review_record((SELECT id FROM ids), '{"nextReviewDate": "2031-01-01"}', pg_temp.checker())$$,
                 'CBV00', 'nextReviewDate: must be after today and no later than 2028-06-15 (the MEDIUM risk interval)',
                 'but not beyond the risk interval');
SELECT is((SELECT count(*) FROM corebank.kyc_reviews WHERE customer_id = (SELECT id FROM ids)), 1::bigint, 'the review is kept');
SELECT throws_ok($$DELETE FROM corebank.kyc_reviews$$, '42501', 'corebank.kyc_reviews is append-only', 'reviews are append-only');
SELECT pg_temp.today('2027-01-01');
SELECT is((SELECT jsonb_array_length(corebank.core_customers_kyc_reviews_due(NULL))), 1, 'the customer is due on the date');
SELECT is((SELECT jsonb_array_length(corebank.core_customers_kyc_reviews_due('2026-12-31'))), 0, 'and not before');
SELECT pg_temp.today('2026-06-15');

-- PROHIBITED: no review, no account.
SELECT is((SELECT corebank.core_customers_kyc_risk_set((SELECT id FROM ids), '{"riskCategory": "PROHIBITED"}',
                                                       pg_temp.maker()) -> 'nextReviewDate'), 'null'::jsonb,
          'a PROHIBITED customer has no review date');
SELECT throws_ok($$SELECT pg_temp.open((SELECT id FROM ids), 'CUR-STD')$$,
                 'CB422', 'The customer''s risk category is PROHIBITED: no account may be opened', 'and opens no account');
SELECT lives_ok($$SELECT corebank.core_customers_kyc_risk_set((SELECT id FROM ids), '{"riskCategory": "LOW"}', pg_temp.maker())$$,
                'the category can be lowered again');

-- Documents: verified through maker-checker only.
CREATE TEMP TABLE doc AS SELECT (corebank.core_customers_kyc_document_add((SELECT id FROM ids),
    '{"documentType": "passport", "documentNumber": "fn123456", "issuingCountry": "ZW", "issuedOn": "2020-01-01", "expiresOn": "2030-01-01"}',
    pg_temp.operator()) ->> 'id')::uuid AS id;
SELECT is((SELECT status FROM corebank.kyc_documents WHERE id = (SELECT id FROM doc)), 'PENDING', 'a document starts PENDING');
SELECT throws_ok($$SELECT corebank.core_customers_kyc_document_add((SELECT id FROM ids), '{"documentType": "PASSPORT", "documentNumber": "FN123456"}', pg_temp.operator())$$,
                 'CB409', 'This document is already recorded for the customer', 'a document is recorded once');
SELECT throws_ok($$SELECT corebank.core_customers_kyc_document_add((SELECT id FROM ids), '{"documentType": "PASSPORT", "documentNumber": "X1", "issuedOn": "2020-01-01", "expiresOn": "2019-01-01"}', pg_temp.operator())$$,
                 'CBV00', 'expiresOn: must be after issuedOn', 'expiry after issue');
SELECT throws_ok($$UPDATE corebank.kyc_documents SET status = 'VERIFIED', decided_by = pg_temp.checker(), decided_at = now() WHERE id = (SELECT id FROM doc)$$,
                 'CB403', 'a KYC document is decided only through an approved kyc.document.verify change, by someone other than its maker',
                 'direct SQL cannot verify without an approval');
SELECT throws_ok($$UPDATE corebank.kyc_documents SET document_number = 'OTHER' WHERE id = (SELECT id FROM doc)$$,
                 'CB422', 'a KYC document''s document_number cannot change', 'a document''s facts are frozen');

CREATE TEMP TABLE req AS SELECT corebank.core_customers_kyc_document_verify_request((SELECT id FROM doc),
    '{"decision": "verified", "note": "seen original"}', pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'operation' || ' ' || (r ->> 'status') FROM req), 'kyc.document.verify PENDING',
          'the verification is parked');
SELECT is((SELECT status FROM corebank.kyc_documents WHERE id = (SELECT id FROM doc)), 'PENDING',
          'nothing changes while it is parked');
SELECT throws_ok($$SELECT corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM req), pg_temp.maker(), NULL)$$,
                 'CB403', 'the maker of a change cannot approve it', 'the maker cannot approve it');
SELECT throws_ok($$UPDATE corebank.kyc_documents SET status = 'VERIFIED', decided_by = pg_temp.maker(), decided_at = now(),
                          parked_change_id = (SELECT (r ->> 'id')::uuid FROM req) WHERE id = (SELECT id FROM doc)$$,
                 'CB403', 'a KYC document is decided only through an approved kyc.document.verify change, by someone other than its maker',
                 'direct SQL cannot let the maker decide');
SELECT is((SELECT corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM req), pg_temp.checker(), 'ok') -> 'result' ->> 'status'),
          'VERIFIED', 'a second person''s approval verifies it');
SELECT is((SELECT decided_by FROM corebank.kyc_documents WHERE id = (SELECT id FROM doc)), pg_temp.checker(),
          'the checker is the decider');
SELECT is((SELECT corebank.core_customers_get((SELECT id FROM ids)) ->> 'kycStatus'), 'VERIFIED',
          'the customer is KYC VERIFIED');
SELECT throws_ok($$UPDATE corebank.kyc_documents SET status = 'REJECTED' WHERE id = (SELECT id FROM doc)$$,
                 'CB409', 'a decided KYC document cannot change', 'a decision is final');
SELECT throws_ok($$SELECT corebank.core_customers_kyc_document_verify_request((SELECT id FROM doc), '{"decision": "REJECTED"}', pg_temp.maker())$$,
                 'CB409', 'The document is already VERIFIED', 'a decided document is not parked again');

-- External checks: the offline stub only.
CREATE TEMP TABLE checks AS SELECT corebank.core_customers_kyc_checks_run((SELECT id FROM ids), '{"checkTypes": ["sanctions_pep"]}',
                                                                            pg_temp.operator()) AS r;
SELECT is((SELECT r -> 0 ->> 'source' FROM checks), 'STUB', 'every result says source STUB');
SELECT is((SELECT jsonb_array_length(corebank.core_customers_kyc_checks_run((SELECT id FROM ids), NULL, pg_temp.operator()))), 4,
          'by default all four checks run');
SELECT throws_ok($$SELECT corebank.core_customers_kyc_checks_run((SELECT id FROM ids), '{"providerMode": "LIVE"}', pg_temp.operator())$$,
                 'CB422', 'EXTERNAL_KYC_PROVIDER_MODE LIVE is not available; only STUB is implemented', 'no other provider exists');

SELECT * FROM finish();
ROLLBACK;
