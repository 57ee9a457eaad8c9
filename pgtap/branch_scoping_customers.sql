-- branch_scoping_customers.sql: customers, the CIF and KYC under branch scoping (issue 15).
--
-- Goal: with scoping on, a Harare (HRE) teller meets a Bulawayo (BYO)
-- customer, and everything that belongs to it (profile, KYC documents, cases,
-- interactions, beneficiaries, beneficial owners, profitability), as if it did
-- not exist: every single read and every amend is CB404 with the message of an
-- unknown id, lists and the KYC reviews-due report leave it out (totals and
-- pages too), and creating a customer in another branch is CB404 "Branch not
-- found". The teller's own branch works as before. Head office staff, an
-- application key (no actor) and the same teller with scoping off see and
-- amend both branches. Postings are not scoped: the teller still deposits into
-- the BYO customer's account, and may name it as a beneficiary.
-- Method: one set of fixtures per actor and branch (made by head office), then
-- the same table of calls run as each actor: refused ones with throws_ok, and
-- allowed ones checked by what they return. A refused amend writes nothing.
-- The same calls on ids that exist nowhere show the refusal is the unknown
-- id's answer, code and message.
BEGIN;
SELECT plan(137);
\ir helpers/deposits.sql
\ir helpers/scoping.sql

-- The fixtures' opening deposits and the deposit below take sequence numbers.
\ir helpers/sequences.sql

SELECT pg_temp.scoping_on();

-- Who acts: the actor passed to the functions, as the tier passes it.
CREATE TEMP TABLE staff (name text PRIMARY KEY, id uuid);
INSERT INTO staff VALUES ('teller', pg_temp.staff_at('HRE')), ('head', pg_temp.staff_at(NULL)),
                         ('auditor', pg_temp.staff_at('HRE', '{auditor}'));
CREATE TEMP TABLE acting (id uuid);
INSERT INTO acting VALUES (NULL);
CREATE FUNCTION pg_temp.actor() RETURNS uuid LANGUAGE sql STABLE AS $f$ SELECT id FROM acting $f$;
CREATE FUNCTION pg_temp.become(who text) RETURNS void LANGUAGE sql
    AS $f$
    UPDATE acting SET id = (SELECT s.id FROM staff s WHERE s.name = who);
    SELECT pg_temp.act_as((SELECT s.id FROM staff s WHERE s.name = who));
$f$;

-- A customer-role identity user that the link requests name.
CREATE TEMP TABLE app_user (id uuid);
WITH made AS (INSERT INTO corebank.auth_users (email, password_hash, first_name, last_name, roles)
              VALUES ('scoped-link@example.com',
                      '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g',
                      'Rudo', 'Moyo', '{customer}') RETURNING id)
INSERT INTO app_user SELECT id FROM made;

-- Fixtures, made by head office: per scenario and branch, an individual with a
-- case, a document, a beneficiary and a deposit account, and a corporate with
-- a beneficial owner. Every name holds "Scopetest" so lists can be narrowed.
CREATE TEMP TABLE fx (scenario text, branch text, person uuid, corp uuid, case_id uuid, doc uuid, ben uuid,
                      owner uuid, account uuid, PRIMARY KEY (scenario, branch));
CREATE FUNCTION pg_temp.fixture(scenario text, branch text) RETURNS void LANGUAGE plpgsql
    AS $f$
DECLARE
    tag text := upper(scenario) || '-' || branch;
    p uuid;
    c uuid;
BEGIN
    p := (corebank.core_customers_create(jsonb_build_object('type', 'INDIVIDUAL', 'firstName', 'Scopetest',
              'lastName', 'Moyo', 'dateOfBirth', '1990-04-02', 'nationalId', 'SC-' || tag, 'branchCode', branch),
          pg_temp.maker()) ->> 'id')::uuid;
    c := (corebank.core_customers_create(jsonb_build_object('type', 'CORPORATE', 'legalName', 'Scopetest ' || tag,
              'registrationNumber', 'SCREG-' || tag, 'branchCode', branch), pg_temp.maker()) ->> 'id')::uuid;
    INSERT INTO fx VALUES (scenario, branch, p, c,
        (corebank.core_customers_case_open(p, '{"subject": "Fixture"}', pg_temp.maker()) ->> 'id')::uuid,
        (corebank.core_customers_kyc_document_add(p, jsonb_build_object('documentType', 'PASSPORT',
             'documentNumber', 'FX-' || tag), pg_temp.maker()) ->> 'id')::uuid,
        (corebank.core_customers_beneficiary_add(p, '{"name": "Other bank", "accountNumber": "999",
             "bankSwiftCode": "CBZKZWHX", "currency": "USD"}', pg_temp.maker()) ->> 'id')::uuid,
        (corebank.core_customers_beneficial_owner_add(c, '{"fullName": "Director", "ownershipPercent": 5,
             "hasControl": true}', pg_temp.maker()) ->> 'id')::uuid,
        pg_temp.open(p, 'SAV-STD', 1000));
END
$f$;
SELECT pg_temp.act_as(NULL);
SELECT pg_temp.fixture(s, b) FROM unnest(ARRAY['scoped', 'head', 'off']) s, unnest(ARRAY['HRE', 'BYO']) b;
-- Ids that exist nowhere: what an unknown id answers, to compare the refusals with.
INSERT INTO fx SELECT 'unknown', 'nonexistent', gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(),
                      gen_random_uuid(), gen_random_uuid(), gen_random_uuid();

-- The id of fixture `what` (a column of fx) of a scenario and branch.
CREATE FUNCTION pg_temp.id(scenario text, branch text, what text) RETURNS uuid LANGUAGE sql STABLE
    AS $f$ SELECT (to_jsonb(f) ->> what)::uuid FROM fx f WHERE f.scenario = id.scenario AND f.branch = id.branch $f$;

-- Every customer/KYC API function but create, list and reviews-due (tested
-- below), as a call on the fixtures of scenario %1$L, branch %2$L: `call` is
-- a boolean query, true when the answer is the right one; `missing` is the
-- CB404 message of an unknown id.
CREATE TEMP TABLE calls (ord int PRIMARY KEY, fn text, kind text, call text, missing text);
INSERT INTO calls VALUES
(1, 'core_customers_get', 'read',
 $$SELECT (corebank.core_customers_get(pg_temp.id(%1$L, %2$L, 'person')) ->> 'id')::uuid = pg_temp.id(%1$L, %2$L, 'person')$$,
 'Customer not found'),
(2, 'core_customers_profile_get', 'read',
 $$SELECT (corebank.core_customers_profile_get(pg_temp.id(%1$L, %2$L, 'person')) ->> 'customerId')::uuid = pg_temp.id(%1$L, %2$L, 'person')$$,
 'Customer not found'),
(3, 'core_customers_kyc_get', 'read',
 $$SELECT jsonb_array_length(corebank.core_customers_kyc_get(pg_temp.id(%1$L, %2$L, 'person')) -> 'documents') = 1$$,
 'Customer not found'),
(4, 'core_customers_cases_list', 'read',
 $$SELECT corebank.core_customers_cases_list(pg_temp.id(%1$L, %2$L, 'person')) -> 0 ->> 'id' = pg_temp.id(%1$L, %2$L, 'case_id')::text$$,
 'Customer not found'),
(5, 'core_customers_interactions_list', 'read',
 $$SELECT (corebank.core_customers_interactions_list(pg_temp.id(%1$L, %2$L, 'person'), 0, 20) ->> 'totalElements') IS NOT NULL$$,
 'Customer not found'),
(6, 'core_customers_beneficial_owners_list', 'read',
 $$SELECT corebank.core_customers_beneficial_owners_list(pg_temp.id(%1$L, %2$L, 'corp')) -> 0 ->> 'id' = pg_temp.id(%1$L, %2$L, 'owner')::text$$,
 'Customer not found'),
(7, 'core_customers_beneficiaries_list', 'read',
 $$SELECT corebank.core_customers_beneficiaries_list(pg_temp.id(%1$L, %2$L, 'person')) -> 0 ->> 'id' = pg_temp.id(%1$L, %2$L, 'ben')::text$$,
 'Customer not found'),
(8, 'core_customers_profitability', 'read',
 $$SELECT corebank.core_customers_profitability(pg_temp.id(%1$L, %2$L, 'person'), '2026-01-01', '2026-01-31') ? 'sole'$$,
 'Customer not found'),
(9, 'core_customers_profile_patch', 'amend',
 $$SELECT corebank.core_customers_profile_patch(pg_temp.id(%1$L, %2$L, 'person'), '{"email": "scoped@example.com"}', pg_temp.actor()) ->> 'email' = 'scoped@example.com'$$,
 'Customer not found'),
(10, 'core_customers_interaction_add', 'amend',
 $$SELECT corebank.core_customers_interaction_add(pg_temp.id(%1$L, %2$L, 'person'), '{"interactionType": "ENQUIRY", "summary": "Balance"}', pg_temp.actor()) ->> 'summary' = 'Balance'$$,
 'Customer not found'),
(11, 'core_customers_case_open', 'amend',
 $$SELECT corebank.core_customers_case_open(pg_temp.id(%1$L, %2$L, 'person'), '{"subject": "Card"}', pg_temp.actor()) ->> 'status' = 'OPEN'$$,
 'Customer not found'),
(12, 'core_customers_case_resolve', 'amend',
 $$SELECT corebank.core_customers_case_resolve(pg_temp.id(%1$L, %2$L, 'person'), pg_temp.id(%1$L, %2$L, 'case_id'), '{"resolution": "Done"}', pg_temp.actor()) ->> 'status' = 'RESOLVED'$$,
 'Case not found'),
(13, 'core_customers_beneficial_owner_add', 'amend',
 $$SELECT corebank.core_customers_beneficial_owner_add(pg_temp.id(%1$L, %2$L, 'corp'), '{"fullName": "Holder", "ownershipPercent": 30}', pg_temp.actor()) ->> 'ownershipBp' = '3000'$$,
 'Customer not found'),
(14, 'core_customers_beneficial_owner_remove', 'amend',
 $$SELECT corebank.core_customers_beneficial_owner_remove(pg_temp.id(%1$L, %2$L, 'corp'), pg_temp.id(%1$L, %2$L, 'owner'), pg_temp.actor()) ->> 'active' = 'false'$$,
 'Beneficial owner not found'),
(15, 'core_customers_beneficiary_add', 'amend',
 $$SELECT corebank.core_customers_beneficiary_add(pg_temp.id(%1$L, %2$L, 'person'), '{"name": "Abroad", "accountNumber": "777", "bankSwiftCode": "CBZKZWHX", "currency": "USD"}', pg_temp.actor()) ->> 'name' = 'Abroad'$$,
 'Customer not found'),
(16, 'core_customers_beneficiary_remove', 'amend',
 $$SELECT corebank.core_customers_beneficiary_remove(pg_temp.id(%1$L, %2$L, 'person'), pg_temp.id(%1$L, %2$L, 'ben'), pg_temp.actor()) ->> 'active' = 'false'$$,
 'Beneficiary not found'),
(17, 'core_customers_kyc_checks_run', 'amend',
 $$SELECT jsonb_array_length(corebank.core_customers_kyc_checks_run(pg_temp.id(%1$L, %2$L, 'person'), NULL, pg_temp.actor())) = 4$$,
 'Customer not found'),
(18, 'core_customers_kyc_document_add', 'amend',
 $$SELECT corebank.core_customers_kyc_document_add(pg_temp.id(%1$L, %2$L, 'person'), '{"documentType": "NATIONAL_ID", "documentNumber": "NEW-1"}', pg_temp.actor()) ->> 'status' = 'PENDING'$$,
 'Customer not found'),
(19, 'core_customers_kyc_document_verify_request', 'amend',
 $$SELECT corebank.core_customers_kyc_document_verify_request(pg_temp.id(%1$L, %2$L, 'doc'), '{"decision": "VERIFIED"}', pg_temp.actor()) ->> 'status' = 'PENDING'$$,
 'KYC document not found'),
(20, 'core_customers_kyc_identity_link_request', 'amend',
 $$SELECT corebank.core_customers_kyc_identity_link_request(pg_temp.id(%1$L, %2$L, 'person'), jsonb_build_object('userId', (SELECT id FROM app_user)), pg_temp.actor()) ->> 'status' = 'PENDING'$$,
 'Customer not found'),
(21, 'core_customers_kyc_review_record', 'amend',
 $$SELECT corebank.core_customers_kyc_review_record(pg_temp.id(%1$L, %2$L, 'person'), '{"notes": "seen"}', pg_temp.actor()) ->> 'lastReviewedBy' = pg_temp.actor()::text$$,
 'Customer not found'),
(22, 'core_customers_kyc_risk_set', 'amend',
 $$SELECT corebank.core_customers_kyc_risk_set(pg_temp.id(%1$L, %2$L, 'person'), '{"riskCategory": "MEDIUM"}', pg_temp.actor()) ->> 'riskCategory' = 'MEDIUM'$$,
 'Customer not found'),
(23, 'core_customers_signing_mandate_set', 'amend',
 $$SELECT corebank.core_customers_signing_mandate_set(pg_temp.id(%1$L, %2$L, 'corp'), '{"signingMandate": "ALL"}', pg_temp.actor()) ->> 'signingMandate' = 'ALL'$$,
 'Customer not found');

-- Each call on the scenario's fixtures of `branch` is refused as unknown.
CREATE FUNCTION pg_temp.refused(scenario text, branch text, who text) RETURNS SETOF text LANGUAGE plpgsql
    AS $f$
DECLARE
    c calls;
BEGIN
    FOR c IN SELECT * FROM calls ORDER BY ord LOOP
        RETURN NEXT throws_ok(format(c.call, scenario, branch), 'CB404', c.missing,
                              format('%s of a %s record by %s: 404 as unknown', c.fn, branch, who));
    END LOOP;
END
$f$;

-- Each call on the scenario's fixtures of `branch` answers the right thing.
CREATE FUNCTION pg_temp.allowed(scenario text, branch text, who text) RETURNS SETOF text LANGUAGE plpgsql
    AS $f$
DECLARE
    c calls;
    right_answer bool;
BEGIN
    FOR c IN SELECT * FROM calls ORDER BY ord LOOP
        BEGIN
            EXECUTE format(c.call, scenario, branch) INTO right_answer;
            RETURN NEXT ok(coalesce(right_answer, false), format('%s of a %s record by %s', c.fn, branch, who));
        EXCEPTION WHEN OTHERS THEN
            RETURN NEXT ok(false, format('%s of a %s record by %s: %s %s', c.fn, branch, who, SQLSTATE, SQLERRM));
        END;
    END LOOP;
END
$f$;

-- What a refused amend could have touched, as one value to compare.
CREATE FUNCTION pg_temp.footprint(scenario text, branch text) RETURNS text LANGUAGE sql STABLE
    AS $f$
    SELECT md5(concat_ws('|',
        (SELECT to_jsonb(c) FROM corebank.customers c WHERE c.id IN (pg_temp.id(scenario, branch, 'person'))),
        (SELECT to_jsonb(c) FROM corebank.customers c WHERE c.id IN (pg_temp.id(scenario, branch, 'corp'))),
        (SELECT to_jsonb(p) FROM corebank.customer_profiles p WHERE p.customer_id = pg_temp.id(scenario, branch, 'person')),
        (SELECT jsonb_agg(k ORDER BY k.id) FROM corebank.customer_cases k WHERE k.customer_id = pg_temp.id(scenario, branch, 'person')),
        (SELECT count(*) FROM corebank.customer_interactions i WHERE i.customer_id = pg_temp.id(scenario, branch, 'person')),
        (SELECT jsonb_agg(d ORDER BY d.id) FROM corebank.kyc_documents d WHERE d.customer_id = pg_temp.id(scenario, branch, 'person')),
        (SELECT count(*) FROM corebank.kyc_checks k WHERE k.customer_id = pg_temp.id(scenario, branch, 'person')),
        (SELECT count(*) FROM corebank.kyc_reviews r WHERE r.customer_id = pg_temp.id(scenario, branch, 'person')),
        (SELECT jsonb_agg(b ORDER BY b.id) FROM corebank.beneficiaries b WHERE b.customer_id = pg_temp.id(scenario, branch, 'person')),
        (SELECT jsonb_agg(o ORDER BY o.id) FROM corebank.beneficial_owners o WHERE o.customer_id = pg_temp.id(scenario, branch, 'corp')),
        (SELECT count(*) FROM corebank.parked_changes x
         WHERE x.entity_id IN (pg_temp.id(scenario, branch, 'person')::text, pg_temp.id(scenario, branch, 'doc')::text))))
$f$;

-- The customer ids a list or report answered, among the fixtures.
CREATE FUNCTION pg_temp.fixtures_in(answer jsonb) RETURNS text LANGUAGE sql STABLE
    AS $f$
    SELECT coalesce(string_agg(f.scenario || '/' || f.branch || '/' || w.what, ' ' ORDER BY f.scenario, f.branch, w.what), '')
    FROM fx f CROSS JOIN LATERAL (VALUES ('person', f.person), ('corp', f.corp)) w(what, id)
    WHERE EXISTS (SELECT FROM jsonb_array_elements(answer) e WHERE coalesce(e ->> 'id', e ->> 'customerId') = w.id::text)
$f$;
CREATE FUNCTION pg_temp.listed(size int DEFAULT 100) RETURNS jsonb LANGUAGE sql STABLE
    AS $f$ SELECT corebank.core_customers_list(jsonb_build_object('q', 'scopetest', 'size', size)) $f$;
CREATE FUNCTION pg_temp.all_fixtures() RETURNS text LANGUAGE sql STABLE
    AS $f$
    SELECT string_agg(f.scenario || '/' || f.branch || '/' || w.what, ' ' ORDER BY f.scenario, f.branch, w.what)
    FROM fx f CROSS JOIN LATERAL (VALUES ('person'), ('corp')) w(what) WHERE f.scenario <> 'unknown'
$f$;

-- ---------------------------------------------------------------------------
-- 1. Scoping on, a Harare teller.
SELECT pg_temp.become('teller');
CREATE TEMP TABLE before_refusals AS SELECT pg_temp.footprint('scoped', 'BYO') AS f;
SELECT * FROM pg_temp.refused('scoped', 'BYO', 'a scoped HRE teller');
SELECT is(pg_temp.footprint('scoped', 'BYO'), (SELECT f FROM before_refusals),
          'the refused amends wrote nothing about the BYO customer (no row, no parked change)');
SELECT * FROM pg_temp.allowed('scoped', 'HRE', 'a scoped HRE teller');

-- Lists and reports leave BYO out, their totals and pages too.
SELECT is(pg_temp.fixtures_in(pg_temp.listed() -> 'content'),
          'head/HRE/corp head/HRE/person off/HRE/corp off/HRE/person scoped/HRE/corp scoped/HRE/person',
          'core_customers_list by a scoped HRE teller: only HRE customers');
SELECT is(pg_temp.listed(1) - 'content', '{"page": 0, "size": 1, "totalElements": 6, "totalPages": 6}'::jsonb,
          'core_customers_list by a scoped HRE teller: its total and pages count HRE customers only');
SELECT is(pg_temp.fixtures_in(corebank.core_customers_kyc_reviews_due('2100-01-01')),
          'head/HRE/corp head/HRE/person off/HRE/corp off/HRE/person scoped/HRE/corp scoped/HRE/person',
          'core_customers_kyc_reviews_due by a scoped HRE teller: only HRE customers');

-- Creating a customer in another branch is 404 for that branch; in one's own, or naming none, it works.
SELECT throws_ok($$SELECT corebank.core_customers_create('{"type": "CORPORATE", "legalName": "Elsewhere",
                     "registrationNumber": "SC-NEW-1", "branchCode": "BYO"}', pg_temp.actor())$$,
                 'CB404', 'Branch not found', 'core_customers_create in BYO by a scoped HRE teller: 404 as unknown');
SELECT throws_ok(format($$SELECT corebank.core_customers_create('{"type": "CORPORATE", "legalName": "Elsewhere",
                     "registrationNumber": "SC-NEW-2", "branchId": "%s"}', pg_temp.actor())$$, pg_temp.branch('BYO')),
                 'CB404', 'Branch not found', 'core_customers_create naming BYO by id: 404 too');
SELECT throws_ok($$SELECT corebank.core_customers_create('{"type": "CORPORATE", "legalName": "Elsewhere",
                     "registrationNumber": "SC-NEW-3", "branchCode": "HO"}', pg_temp.actor())$$,
                 'CB404', 'Branch not found', 'core_customers_create at head office by a scoped HRE teller: 404');
SELECT is((SELECT count(*) FROM corebank.customers WHERE registration_number LIKE 'SC-NEW-%'), 0::bigint,
          'the refused creations left no customer');
SELECT is(corebank.core_customers_create('{"type": "CORPORATE", "legalName": "Own branch",
              "registrationNumber": "SC-NEW-4", "branchCode": "hre"}', pg_temp.actor()) ->> 'branchCode', 'HRE',
          'core_customers_create in HRE by a scoped HRE teller');
SELECT is(corebank.core_customers_create('{"type": "CORPORATE", "legalName": "Own branch",
              "registrationNumber": "SC-NEW-5"}', pg_temp.actor()) ->> 'branchCode', 'HRE',
          'core_customers_create naming no branch: the teller''s own');

-- Postings are not scoped: the teller deposits into the BYO customer's account, and names it as a beneficiary.
SELECT is(corebank.core_deposit(jsonb_build_object('accountId', pg_temp.id('scoped', 'BYO', 'account'), 'amountMinor', 500),
                                pg_temp.actor()) ->> 'status', 'POSTED',
          'a scoped HRE teller deposits into a BYO customer''s account');
SELECT is(corebank.core_customers_beneficiary_add(pg_temp.id('scoped', 'HRE', 'person'),
              jsonb_build_object('name', 'Sister in Bulawayo', 'accountNumber',
                  (SELECT account_number FROM corebank.ledger_accounts WHERE id = pg_temp.id('scoped', 'BYO', 'account'))),
              pg_temp.actor()) ->> 'accountId',
          pg_temp.id('scoped', 'BYO', 'account')::text,
          'an HRE customer''s beneficiary may be a BYO account (a transfer target by number)');

-- ---------------------------------------------------------------------------
-- 2. Scoping on, head office: a staff member with no branch, an application key (no actor), an auditor.
SELECT pg_temp.become('head');
SELECT * FROM pg_temp.allowed('head', 'BYO', 'head office');
-- The refusals above answer exactly what an unknown id answers.
SELECT * FROM pg_temp.refused('unknown', 'nonexistent', 'head office');
SELECT is(pg_temp.fixtures_in(pg_temp.listed() -> 'content'), pg_temp.all_fixtures(),
          'core_customers_list by head office: every branch');
SELECT is((pg_temp.listed(1) ->> 'totalElements')::int, 12, 'its total counts every branch');
SELECT is(pg_temp.fixtures_in(corebank.core_customers_kyc_reviews_due('2100-01-01')), pg_temp.all_fixtures(),
          'core_customers_kyc_reviews_due by head office: every branch');
SELECT is(corebank.core_customers_create('{"type": "CORPORATE", "legalName": "Elsewhere",
              "registrationNumber": "SC-HO-1", "branchCode": "BYO"}', pg_temp.actor()) ->> 'branchCode', 'BYO',
          'core_customers_create in BYO by head office');
SELECT pg_temp.act_as(NULL);
SELECT is(corebank.core_customers_get(pg_temp.id('scoped', 'BYO', 'person')) ->> 'branchCode', 'BYO',
          'an application key without a staff token reads a BYO customer');
SELECT pg_temp.become('auditor');
SELECT is(corebank.core_customers_get(pg_temp.id('scoped', 'BYO', 'person')) ->> 'branchCode', 'BYO',
          'an auditor with an HRE branch is unscoped and reads a BYO customer');

-- ---------------------------------------------------------------------------
-- 3. Scoping off: the same Harare teller sees and amends every branch.
SELECT pg_temp.scoping_off();
SELECT pg_temp.become('teller');
SELECT * FROM pg_temp.allowed('off', 'BYO', 'an HRE teller, scoping off');
SELECT is(pg_temp.fixtures_in(pg_temp.listed() -> 'content'), pg_temp.all_fixtures(),
          'core_customers_list by an HRE teller, scoping off: every branch');
SELECT is(pg_temp.fixtures_in(corebank.core_customers_kyc_reviews_due('2100-01-01')), pg_temp.all_fixtures(),
          'core_customers_kyc_reviews_due by an HRE teller, scoping off: every branch');
SELECT is(corebank.core_customers_create('{"type": "CORPORATE", "legalName": "Elsewhere",
              "registrationNumber": "SC-OFF-1", "branchCode": "BYO"}', pg_temp.actor()) ->> 'branchCode', 'BYO',
          'core_customers_create in BYO by an HRE teller, scoping off');

SELECT pg_temp.sequences_put_back();

SELECT * FROM finish();
ROLLBACK;
