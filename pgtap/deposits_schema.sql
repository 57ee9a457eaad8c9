-- deposits_schema.sql: the shape of issue 4 (1.4) and who may touch it.
--
-- Goal: the customer, account and deposit tables exist; every rule trigger
-- is C++; the tier's role executes the API and reads no table; the auditor
-- reads the lifecycle and interest trail, reporting the products and
-- accounts too, and neither reads customer data. Method: catalog checks,
-- then SET ROLE and try.
BEGIN;
SELECT plan(29);

SELECT has_table('corebank', t, 'table corebank.' || t)
FROM unnest(ARRAY['customers', 'customer_profiles', 'customer_interactions', 'customer_cases', 'beneficial_owners',
                  'beneficiaries', 'kyc_documents', 'kyc_checks', 'kyc_reviews', 'deposit_products',
                  'deposit_product_tiers', 'deposit_accounts', 'account_status_history', 'exchange_rates',
                  'interest_accruals', 'interest_accrual_journals', 'account_month_ends', 'passbooks', 'standing_orders',
                  'standing_order_executions']) AS t;

SELECT is((SELECT count(*) FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
           WHERE t.tgrelid = ANY (ARRAY['corebank.customers'::regclass, 'corebank.customer_cases'::regclass,
                                        'corebank.customer_interactions'::regclass, 'corebank.kyc_documents'::regclass,
                                        'corebank.beneficial_owners'::regclass, 'corebank.deposit_accounts'::regclass,
                                        'corebank.passbooks'::regclass, 'corebank.standing_orders'::regclass,
                                        'corebank.ledger_accounts'::regclass, 'corebank.deposit_products'::regclass])
             AND NOT t.tgisinternal AND p.prolang <> (SELECT oid FROM pg_language WHERE lanname = 'c')),
          0::bigint, 'every rule trigger is C++');
SELECT is((SELECT count(*) FROM pg_trigger WHERE tgrelid = 'corebank.ledger_accounts'::regclass
           AND tgname IN ('ledger_accounts_lifecycle', 'ledger_accounts_lifecycle_open', 'ledger_accounts_no_delete')),
          3::bigint, 'the lifecycle guards ledger accounts on insert, status update and delete');
SELECT is((SELECT count(*) FROM pg_constraint WHERE conname = 'parked_changes_checker_not_maker'), 1::bigint,
          'KYC verification rides on maker-checker (checker is not maker)');

SELECT is((SELECT count(*) FROM pg_class c
           WHERE c.relnamespace = 'corebank'::regnamespace AND c.relkind IN ('r', 'S', 'v')
             AND (has_table_privilege('corebank_app', c.oid, 'SELECT') OR has_table_privilege('corebank_app', c.oid, 'INSERT')
               OR has_table_privilege('corebank_app', c.oid, 'UPDATE') OR has_table_privilege('corebank_app', c.oid, 'DELETE'))),
          0::bigint, 'corebank_app has no privilege on any table or sequence');
SELECT ok(has_function_privilege('corebank_app', 'corebank.core_deposit(jsonb,uuid)', 'EXECUTE')
          AND has_function_privilege('corebank_app', 'corebank.core_standing_orders_execute(date,uuid)', 'EXECUTE')
          AND has_function_privilege('corebank_app', 'corebank.core_customers_create(jsonb,uuid)', 'EXECUTE'),
          'corebank_app executes the deposits API');
SELECT ok(NOT has_function_privilege('corebank_app', 'corebank_internal.account_post(jsonb,jsonb)', 'EXECUTE'),
          'but not the internal posting helper');
SELECT ok(has_table_privilege('corebank_auditor', 'corebank.account_status_history', 'SELECT')
          AND has_table_privilege('corebank_auditor', 'corebank.interest_accruals', 'SELECT')
          AND NOT has_table_privilege('corebank_auditor', 'corebank.customers', 'SELECT'),
          'the auditor reads the lifecycle and interest trail, not customers');
SELECT ok(has_table_privilege('corebank_reporting', 'corebank.deposit_accounts', 'SELECT')
          AND NOT has_table_privilege('corebank_reporting', 'corebank.customer_profiles', 'SELECT'),
          'reporting reads accounts, not CIF profiles');

SET ROLE corebank_app;
SELECT throws_ok('SELECT * FROM corebank.customers', '42501', NULL, 'corebank_app cannot read customers');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
