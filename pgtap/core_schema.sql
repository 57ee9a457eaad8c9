-- core_schema.sql: the shape of the ledger (1.1) and who may touch it.
--
-- Goal: the ledger's tables, seeded data, triggers (C++, the balance check
-- deferred to commit) and privileges are as docs/design/ledger.md says: the
-- tier's role executes the API and reads no table; the auditor reads the
-- journal and runs the checks; reporting adds the chart and the balance view.
-- Method: catalog checks, then SET ROLE and try.
BEGIN;
SELECT plan(37);

SELECT has_table('corebank', t, 'table corebank.' || t)
FROM unnest(ARRAY['currencies', 'platform_config', 'branches', 'numbering_config', 'gl_accounts', 'ledger_accounts',
                  'accounting_periods', 'parked_changes', 'transactions', 'transaction_lines_proposed',
                  'journal_entries', 'gl_balance_stripes', 'chain_heads', 'idempotency_keys', 'gl_budgets',
                  'api_keys', 'api_key_rate_counters', 'account_day_totals', 'gl_day_totals']) AS t;

-- Seeded data.
SELECT results_eq('SELECT code::text, minor_units::int FROM corebank.currencies ORDER BY code',
                  $$VALUES ('USD', 2), ('ZWG', 2)$$, 'currencies USD and ZWG');
SELECT results_eq('SELECT code FROM corebank.branches ORDER BY code',
                  $$VALUES ('BYO'), ('GWE'), ('HO'), ('HRE'), ('MSV'), ('MUT')$$, 'six branches');
SELECT is((SELECT code FROM corebank.branches WHERE is_head_office), 'HO', 'HO is the head office');
SELECT is((SELECT count(*) FROM corebank.gl_accounts g JOIN corebank.gl_accounts m ON m.mirror_of = g.id
           WHERE g.currency = 'USD' AND m.currency = 'ZWG' AND m.code = g.code AND m.type = g.type AND m.name = g.name),
          23::bigint, '23 USD accounts, each with its ZWG mirror');
SELECT is((SELECT count(*) FROM corebank.chain_heads WHERE seq = 0 AND hash = decode(repeat('00', 32), 'hex')), 16::bigint,
          '16 chain heads at genesis');
SELECT results_eq('SELECT entity_type, prefix, padding FROM corebank.numbering_config ORDER BY entity_type',
                  $$VALUES ('ACCOUNT', 'AC', 10), ('APPLICATION', 'AP', 10), ('LOAN', 'LN', 10), ('TRANSACTION', 'TX', 10)$$,
                  'numbering defaults');
SELECT results_eq('SELECT business_time_zone, lapse_hours, today_override FROM corebank.platform_config',
                  $$VALUES ('Africa/Harare', 72, NULL::date)$$, 'platform defaults');

-- Triggers: C++ functions; the balance check is deferred to commit.
SELECT is((SELECT count(*) FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
           WHERE t.tgrelid = ANY (ARRAY['corebank.journal_entries'::regclass, 'corebank.transactions'::regclass,
                                        'corebank.gl_accounts'::regclass, 'corebank.ledger_accounts'::regclass,
                                        'corebank.gl_balance_stripes'::regclass, 'corebank.chain_heads'::regclass,
                                        'corebank.parked_changes'::regclass, 'corebank.transaction_lines_proposed'::regclass])
             AND NOT t.tgisinternal AND p.prolang <> (SELECT oid FROM pg_language WHERE lanname = 'c')),
          0::bigint, 'every ledger trigger is C++');
SELECT is((SELECT tgdeferrable AND tginitdeferred FROM pg_trigger WHERE tgname = 'journal_entries_balanced'), true,
          'the balance check is DEFERRABLE INITIALLY DEFERRED');
SELECT is((SELECT count(*) FROM pg_constraint WHERE conname = 'parked_changes_checker_not_maker'), 1::bigint,
          'parked_changes has CHECK (checker_id IS DISTINCT FROM maker_id)');

-- The tier's role: the API, no table.
SELECT is((SELECT count(*) FROM pg_class c
           WHERE c.relnamespace = 'corebank'::regnamespace AND c.relkind IN ('r', 'S', 'v')
             AND (has_table_privilege('corebank_app', c.oid, 'SELECT') OR has_table_privilege('corebank_app', c.oid, 'INSERT')
               OR has_table_privilege('corebank_app', c.oid, 'UPDATE') OR has_table_privilege('corebank_app', c.oid, 'DELETE'))),
          0::bigint, 'corebank_app has no privilege on any table');
SELECT ok(has_function_privilege('corebank_app', 'corebank.ledger_post(jsonb)', 'EXECUTE')
          AND has_function_privilege('corebank_app', 'corebank.core_api_key_authenticate(bytea,text)', 'EXECUTE')
          AND has_function_privilege('corebank_app', 'corebank.core_transaction_capture(jsonb,uuid)', 'EXECUTE'),
          'corebank_app executes the ledger API');
SELECT is((SELECT count(*) FROM pg_proc p WHERE p.pronamespace = 'corebank_internal'::regnamespace
           AND has_function_privilege('corebank_app', p.oid, 'EXECUTE')), 0::bigint, 'no internal helper for corebank_app');

-- The auditor: the journal and the checks, nothing else.
SELECT ok(has_table_privilege('corebank_auditor', 'corebank.journal_entries', 'SELECT')
          AND has_table_privilege('corebank_auditor', 'corebank.transactions', 'SELECT')
          AND has_table_privilege('corebank_auditor', 'corebank.chain_heads', 'SELECT')
          AND has_table_privilege('corebank_auditor', 'corebank.parked_changes', 'SELECT'),
          'the auditor reads the journal, transactions, chain heads and approvals');
SELECT ok(NOT has_table_privilege('corebank_auditor', 'corebank.journal_entries', 'INSERT')
          AND NOT has_table_privilege('corebank_auditor', 'corebank.api_keys', 'SELECT'),
          'the auditor writes nothing and reads no keys');
SELECT ok(has_function_privilege('corebank_auditor', 'corebank.ledger_verify_chain()', 'EXECUTE')
          AND has_function_privilege('corebank_auditor', 'corebank.ledger_check_balances()', 'EXECUTE')
          AND has_function_privilege('corebank_auditor', 'corebank.trial_balance_as_of(date)', 'EXECUTE'),
          'the auditor runs the checks and reports');
SELECT ok(NOT has_function_privilege('corebank_auditor', 'corebank.ledger_post(jsonb)', 'EXECUTE'),
          'the auditor cannot post');
SELECT ok(has_table_privilege('corebank_reporting', 'corebank.gl_balances', 'SELECT')
          AND has_table_privilege('corebank_reporting', 'corebank.journal_entries', 'SELECT'),
          'reporting reads the journal and the balance view');

SELECT * FROM finish();
ROLLBACK;
