-- reporting_views.sql: the masked views of personal data that
-- corebank_reporting reads (issue 15; docs/reporting.md).
--
-- Goal: DBAs report on customers in SQL without the superuser and without
-- seeing what a report does not need. corebank_reports holds one view per
-- table of personal data, owned by the superuser (owner rights: a reader
-- needs SELECT on the view only) and a security barrier; each shows exactly
-- its documented columns, with names as initials, dates of birth as years,
-- identifying numbers, emails and phones masked (at most the last 4), free
-- text and provider answers left out, and no secret or hash. The roles read
-- the views, never the base tables; the tier's role and PUBLIC read neither.
-- Method: the catalogue for the shape and the rights; one customer's
-- records (helpers/reporting.sql) read through every view as a reporting
-- login, its values compared, and every view's rows searched for the raw
-- personal values.
BEGIN;
\ir helpers/deposits.sql
\ir helpers/reporting.sql
\ir helpers/sequences.sql
SELECT plan(43);

CREATE TEMP TABLE views (name text PRIMARY KEY, base text);
INSERT INTO views VALUES
    ('customers', 'customers'), ('customer_profiles', 'customer_profiles'),
    ('customer_identifiers', 'customer_identifiers'), ('kyc_checks', 'kyc_checks'),
    ('kyc_documents', 'kyc_documents'), ('kyc_reviews', 'kyc_reviews'), ('beneficiaries', 'beneficiaries'),
    ('beneficial_owners', 'beneficial_owners'), ('customer_cases', 'customer_cases'),
    ('customer_interactions', 'customer_interactions'), ('staff_identities', 'auth_users');

-- Shape.
SELECT has_schema('corebank_reports', 'schema corebank_reports exists');
SELECT set_eq($$SELECT c.relname::text FROM pg_class c WHERE c.relnamespace = 'corebank_reports'::regnamespace$$,
              $$SELECT name FROM views$$, 'corebank_reports holds exactly the masking views');
SELECT is((SELECT count(*) FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner
           WHERE c.relnamespace = 'corebank_reports'::regnamespace AND c.relkind = 'v' AND r.rolsuper
             AND 'security_barrier=true' = ANY (c.reloptions)),
          11::bigint, 'every view is owned by the superuser and is a security barrier');
SELECT ok((SELECT r.rolsuper FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner
           WHERE n.nspname = 'corebank_reports'), 'the schema is the superuser''s');
SELECT is((SELECT count(*) FROM pg_class c
           WHERE c.relnamespace = 'corebank_reports'::regnamespace
             AND pg_get_viewdef(c.oid) NOT LIKE '%corebank.branch_visible(%'),
          0::bigint, 'every view filters through corebank.branch_visible');

-- Exactly these columns: what each view shows is decided column by column (docs/reporting.md).
SELECT columns_are('corebank_reports', 'customers', ARRAY[
    'id', 'customer_number', 'type', 'status', 'branch_id', 'initials', 'birth_year', 'gender', 'national_id_masked',
    'nationality', 'legal_name', 'trading_name', 'registration_number', 'incorporation_date', 'country_of_incorporation',
    'signing_mandate', 'risk_category', 'risk_set_at', 'risk_set_by', 'next_review_date', 'last_reviewed_at',
    'last_reviewed_by', 'auth_user_id', 'created_at', 'created_by', 'updated_at', 'updated_by'],
    'customers: no names, date of birth, national id or risk reason');
SELECT columns_are('corebank_reports', 'customer_profiles', ARRAY[
    'customer_id', 'branch_id', 'email_masked', 'phone_masked', 'city', 'province', 'country', 'employment_status',
    'occupation', 'declared_income_minor', 'income_currency', 'income_frequency', 'updated_at', 'updated_by'],
    'customer_profiles: no email, phone, street address, postal code or employer');
SELECT columns_are('corebank_reports', 'customer_identifiers', ARRAY['customer_id', 'kind', 'value_masked', 'first_seen_at'],
    'customer_identifiers: the value masked');
SELECT columns_are('corebank_reports', 'kyc_checks', ARRAY[
    'id', 'customer_id', 'branch_id', 'check_type', 'provider_mode', 'source', 'outcome', 'requested_by', 'requested_at',
    'verify_session_id'], 'kyc_checks: no provider details');
SELECT columns_are('corebank_reports', 'kyc_documents', ARRAY[
    'id', 'customer_id', 'branch_id', 'document_type', 'document_number_masked', 'issuing_country', 'issued_on',
    'expires_on', 'status', 'submitted_by', 'submitted_at', 'decided_by', 'decided_at', 'parked_change_id'],
    'kyc_documents: no document number or decision note');
SELECT columns_are('corebank_reports', 'kyc_reviews', ARRAY[
    'id', 'customer_id', 'branch_id', 'risk_category', 'next_review_date', 'reviewed_by', 'reviewed_at'],
    'kyc_reviews: no notes');
SELECT columns_are('corebank_reports', 'beneficiaries', ARRAY[
    'id', 'customer_id', 'branch_id', 'initials', 'account_number_masked', 'bank_swift_code', 'account_id', 'currency',
    'active', 'created_at', 'created_by', 'removed_at', 'removed_by'],
    'beneficiaries: no name, account number or nickname');
SELECT columns_are('corebank_reports', 'beneficial_owners', ARRAY[
    'id', 'customer_id', 'branch_id', 'owner_customer_id', 'initials', 'birth_year', 'nationality', 'national_id_masked',
    'ownership_bp', 'has_control', 'active', 'created_at', 'created_by', 'removed_at', 'removed_by'],
    'beneficial_owners: no name, date of birth or national id');
SELECT columns_are('corebank_reports', 'customer_cases', ARRAY[
    'id', 'customer_id', 'branch_id', 'category', 'status', 'opened_by', 'opened_at', 'resolved_by', 'resolved_at'],
    'customer_cases: no subject, description or resolution');
SELECT columns_are('corebank_reports', 'customer_interactions', ARRAY[
    'id', 'customer_id', 'branch_id', 'channel', 'interaction_type', 'occurred_at', 'recorded_by', 'recorded_at'],
    'customer_interactions: no summary or notes');
SELECT columns_are('corebank_reports', 'staff_identities', ARRAY[
    'id', 'initials', 'roles', 'status', 'branch_code', 'branch_id', 'created_at', 'updated_at'],
    'staff_identities: no username, email, phone, names, password hash, second factor or lockout');

-- Rights.
CREATE ROLE cb_pgtap_reporting_nobody NOLOGIN;
SELECT is((SELECT count(*) FROM views v
           WHERE NOT has_table_privilege('corebank_reporting', 'corebank_reports.' || v.name, 'SELECT')
              OR NOT has_table_privilege('corebank_auditor', 'corebank_reports.' || v.name, 'SELECT')),
          0::bigint, 'corebank_reporting and corebank_auditor read every view');
SELECT ok(has_schema_privilege('corebank_reporting', 'corebank_reports', 'USAGE')
          AND has_schema_privilege('corebank_auditor', 'corebank_reports', 'USAGE'), 'both use the schema');
SELECT is((SELECT count(*) FROM views v
           WHERE has_table_privilege('corebank_reporting', 'corebank.' || v.base, 'SELECT')
              OR has_table_privilege('corebank_auditor', 'corebank.' || v.base, 'SELECT')),
          0::bigint, 'neither reads a base table of personal data');
SELECT ok(NOT has_schema_privilege('corebank_app', 'corebank_reports', 'USAGE')
          AND NOT EXISTS (SELECT FROM views v WHERE has_table_privilege('corebank_app', 'corebank_reports.' || v.name, 'SELECT')),
          'the tier''s role reads no view (it has the API only)');
SELECT ok(NOT has_schema_privilege('cb_pgtap_reporting_nobody', 'corebank_reports', 'USAGE')
          AND NOT EXISTS (SELECT FROM views v
                          WHERE has_table_privilege('cb_pgtap_reporting_nobody', 'corebank_reports.' || v.name, 'SELECT'))
          AND NOT has_function_privilege('cb_pgtap_reporting_nobody', 'corebank_reports.masked(text)', 'EXECUTE'),
          'PUBLIC reads nothing there');

-- One customer's records, read as a reporting login (no branch: unscoped).
CREATE TEMP TABLE fx AS
    SELECT pg_temp.customer('Tendai', '63-1234567-A-42', '{"middleName": "Rudo", "gender": "FEMALE", "branchCode": "HRE"}')
           AS customer;
CREATE TEMP TABLE records AS SELECT r.* FROM fx, pg_temp.personal_records(fx.customer) r;
INSERT INTO records SELECT 'customers', customer FROM fx;
INSERT INTO corebank.customers_graph (id, public_id, display_name, is_guest)
VALUES ('00000000-0000-4000-8000-0000000000aa', 'cus_abcdefghijklmnopqrst', 'Tendai Moyo', false);
INSERT INTO corebank.customer_identifiers (kind, value, customer_id)
VALUES ('email', 'tendai.moyo@example.com', '00000000-0000-4000-8000-0000000000aa');
INSERT INTO records VALUES ('customer_identifiers', '00000000-0000-4000-8000-0000000000aa');
INSERT INTO records
SELECT 'staff_identities', corebank.auth_staff_create('tendai.staff@example.com', '+263779876543',
    '$argon2id$v=19$m=65536,t=3,p=1$c2FsdHNhbHRzYWx0c2FsdA$MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI',
    'Tendai', 'Moyo', '{teller}', 'HRE');
UPDATE corebank.auth_users SET display_name = 'Tendai Rudo Moyo' WHERE id = (SELECT id FROM records WHERE view = 'staff_identities');
GRANT SELECT ON fx, records TO PUBLIC;
CREATE ROLE cb_pgtap_report_all LOGIN IN ROLE corebank_reporting;
SET SESSION AUTHORIZATION cb_pgtap_report_all;

SELECT is((SELECT row(initials, birth_year, gender, national_id_masked, risk_category)::text
           FROM corebank_reports.customers WHERE id = (SELECT customer FROM fx)),
          '(TM,1990,FEMALE,****A-42,LOW)', 'customers: initials, year of birth, national id masked, gender and risk kept');
SELECT is((SELECT row(email_masked, phone_masked, city, country, employment_status, occupation, declared_income_minor)::text
           FROM corebank_reports.customer_profiles WHERE customer_id = (SELECT customer FROM fx)),
          '(****.com,****4567,Harare,ZW,EMPLOYED,Engineer,150000)',
          'customer_profiles: email and phone masked, city, employment and income kept');
SELECT is((SELECT row(kind, value_masked)::text FROM corebank_reports.customer_identifiers
           WHERE customer_id = '00000000-0000-4000-8000-0000000000aa'),
          '(email,****.com)', 'customer_identifiers: the value masked');
SELECT is((SELECT row(check_type, outcome)::text FROM corebank_reports.kyc_checks
           WHERE id = (SELECT id FROM records WHERE view = 'kyc_checks')),
          '(SANCTIONS_PEP,CLEAR)', 'kyc_checks: type and outcome');
SELECT is((SELECT row(document_type, document_number_masked, issuing_country, expires_on)::text
           FROM corebank_reports.kyc_documents WHERE id = (SELECT id FROM records WHERE view = 'kyc_documents')),
          '(NATIONAL_ID,****A-42,ZW,2035-01-01)', 'kyc_documents: the number masked, type, country and expiry kept');
SELECT is((SELECT row(risk_category, next_review_date)::text FROM corebank_reports.kyc_reviews
           WHERE id = (SELECT id FROM records WHERE view = 'kyc_reviews')),
          '(LOW,2029-03-02)', 'kyc_reviews: risk and next review');
SELECT is((SELECT row(initials, account_number_masked, bank_swift_code)::text FROM corebank_reports.beneficiaries
           WHERE id = (SELECT id FROM records WHERE view = 'beneficiaries')),
          '(CN,****7890,ABCDZWHX)', 'beneficiaries: initials, account number masked, bank kept');
SELECT is((SELECT row(initials, birth_year, national_id_masked, ownership_bp, has_control)::text
           FROM corebank_reports.beneficial_owners WHERE id = (SELECT id FROM records WHERE view = 'beneficial_owners')),
          '(FC,1975,****B-18,5000,t)', 'beneficial_owners: initials, year of birth, national id masked, stake kept');
SELECT is((SELECT row(category, status)::text FROM corebank_reports.customer_cases
           WHERE id = (SELECT id FROM records WHERE view = 'customer_cases')),
          '(CARDS,OPEN)', 'customer_cases: category and status');
SELECT is((SELECT row(channel, interaction_type)::text FROM corebank_reports.customer_interactions
           WHERE id = (SELECT id FROM records WHERE view = 'customer_interactions')),
          '(BRANCH,ENQUIRY)', 'customer_interactions: channel and type');
SELECT is((SELECT row(initials, roles, status, branch_code)::text FROM corebank_reports.staff_identities
           WHERE id = (SELECT id FROM records WHERE view = 'staff_identities')),
          '(TRM,{teller},ACTIVE,HRE)', 'staff_identities: initials, roles, status and branch');

-- No raw personal value in any row of any view about these records.
CREATE FUNCTION pg_temp.shown(view_name text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
    shown text;
BEGIN
    EXECUTE format('SELECT string_agg(row_to_json(v)::text, '' '') FROM corebank_reports.%I v WHERE %s IN (SELECT id FROM records WHERE view = %L)',
                   view_name, CASE view_name WHEN 'customer_profiles' THEN 'v.customer_id'
                                             WHEN 'customer_identifiers' THEN 'v.customer_id' ELSE 'v.id' END, view_name)
        INTO shown;
    RETURN shown;
END
$f$;
SELECT is((SELECT count(*) FROM records r WHERE pg_temp.shown(r.view) IS NULL), 0::bigint,
          'the reporting login sees every record through its view');
SELECT is((SELECT string_agg(DISTINCT r.view || ': ' || raw.value, '; ')
           FROM records r CROSS JOIN unnest(ARRAY[
               'Tendai', 'Moyo', 'Rudo', '1990-04-02', '1234567', 'tendai.moyo', 'tendai.staff', '771234567', '779876543',
               'Samora', '00263', 'Zimplats', 'Borrowdale', 'Chipo', 'Ndlovu', '123456', 'Little sister', 'Farai', 'Chikore',
               '1975-06-30', '7654321', 'swallowed', 'kept the card', 'home loan', 'Salary', 'matchedName', 'argon2',
               'password']) AS raw(value)
           WHERE position(lower(raw.value) IN lower(pg_temp.shown(r.view))) > 0),
          NULL, 'no name, date of birth, number, email, phone, address, free text, provider answer or hash is shown');

-- The base tables stay closed to the reader.
SELECT throws_ok('SELECT count(*) FROM corebank.customers', '42501', NULL, 'a reporting login cannot read customers');
SELECT throws_ok('SELECT count(*) FROM corebank.customer_profiles', '42501', NULL, 'nor customer_profiles');
SELECT throws_ok('SELECT count(*) FROM corebank.kyc_documents', '42501', NULL, 'nor kyc_documents');
SELECT throws_ok('SELECT count(*) FROM corebank.auth_users', '42501', NULL, 'nor auth_users');
SELECT throws_ok('CREATE VIEW corebank_reports.mine AS SELECT 1', '42501', NULL, 'nor add a view to corebank_reports');
RESET SESSION AUTHORIZATION;

-- The masks themselves.
SELECT is(corebank_reports.masked('AB12'), '****12', 'a short value shows at most half of itself');
SELECT is(corebank_reports.masked(NULL), NULL, 'NULL stays NULL');
SELECT is(corebank_reports.initials('  chipo   ndlovu  '), 'CN', 'initials ignore extra spaces and are upper case');

SELECT pg_temp.sequences_put_back();

SELECT * FROM finish();
ROLLBACK;
