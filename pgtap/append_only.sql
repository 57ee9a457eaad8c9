-- append_only.sql: every append-only table refuses UPDATE, DELETE and
-- TRUNCATE through the one trigger, with the one SQLSTATE and message form.
--
-- Goal: a superuser (this test's role) cannot change or remove a row of any
-- append-only table without disabling triggers; each refusal is SQLSTATE
-- 42501 with "corebank.<table> is append-only" and the detail
-- "<OPERATION> refused"; every table is kept by corebank_internal.
-- refuse_change() and by no other function; a table whose comment says
-- "append-only" but lacks the trigger, or one that has it but is missing
-- from the list below, fails the catalog checks. Method: the catalog, then
-- one row written through the API in each table, then direct UPDATE, DELETE
-- and TRUNCATE of each.
BEGIN;
SELECT plan(150);
\ir helpers/deposits.sql
\ir helpers/identity.sql
\ir helpers/events.sql
\ir helpers/verify.sql

-- Sequences do not roll back, and the tests after this one read numbers
-- (TX0000000001, the first customer number): the writes below take some,
-- so the test puts every corebank sequence back where it found it.
CREATE TEMP TABLE sequences_before AS
SELECT format('%I.%I', s.schemaname, s.sequencename) AS name, s.start_value, s.last_value
FROM pg_sequences s WHERE s.schemaname IN ('corebank', 'corebank_internal');

-- The append-only tables (docs/ledger.md, "Append-only tables").
CREATE TEMP TABLE append_only (name text PRIMARY KEY);
INSERT INTO append_only VALUES
    ('journal_entries'), ('transaction_lines_proposed'), ('auth_audit'), ('events'), ('verify_session_events'),
    ('customer_interactions'), ('kyc_checks'), ('kyc_reviews'), ('account_status_history'), ('exchange_rates'),
    ('interest_accruals'), ('interest_accrual_journals'), ('data_migrations'), ('passbook_marks'), ('auth_kyc_tier_changes');
INSERT INTO append_only VALUES ('verify_checks');
INSERT INTO append_only VALUES ('staff_audit');
INSERT INTO append_only VALUES ('api_key_events');

-- The statement (as text) of each trigger of corebank.<table> that runs
-- refuse_change, by timing and level: 'row' (BEFORE UPDATE OR DELETE, each
-- row) or 'statement' (BEFORE TRUNCATE).
CREATE FUNCTION pg_temp.refusing_triggers(table_name text, level text) RETURNS bigint
    LANGUAGE sql STABLE
    AS $f$
    SELECT count(*)
    FROM pg_trigger g
    JOIN pg_class c ON c.oid = g.tgrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'corebank' AND c.relname = table_name AND NOT g.tgisinternal AND g.tgenabled = 'O'
      AND g.tgfoid = 'corebank_internal.refuse_change()'::regprocedure
      AND CASE level
              -- tgtype bits: ROW 1, BEFORE 2, INSERT 4, DELETE 8, UPDATE 16, TRUNCATE 32
              WHEN 'row' THEN g.tgtype & (1 | 2 | 8 | 16) = (1 | 2 | 8 | 16) AND g.tgtype & 4 = 0
              ELSE g.tgtype & (1 | 2 | 32) = (2 | 32)
          END
$f$;

-- The catalog: every listed table has both triggers; every table carrying
-- the trigger is listed; every table whose comment says append-only is.
SELECT is(pg_temp.refusing_triggers(a.name, 'row'), 1::bigint,
          format('corebank.%s refuses UPDATE and DELETE with refuse_change', a.name))
FROM append_only a ORDER BY a.name;
SELECT is(pg_temp.refusing_triggers(a.name, 'statement'), 1::bigint,
          format('corebank.%s refuses TRUNCATE with refuse_change', a.name))
FROM append_only a ORDER BY a.name;
SELECT is_empty($$SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                  WHERE n.nspname = 'corebank' AND c.relkind = 'r'
                    AND obj_description(c.oid, 'pg_class') ILIKE '%append-only%'
                  EXCEPT SELECT name FROM append_only$$,
                'every table commented append-only is listed');
SELECT set_eq($$SELECT DISTINCT c.relname::text FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
                WHERE g.tgfoid = 'corebank_internal.refuse_change()'::regprocedure
                  AND g.tgtype & 1 = 1$$,
              $$SELECT name FROM append_only$$,
              'refuse_change keeps the rows of the listed tables only (others use it for TRUNCATE alone)');
SELECT is((SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE n.nspname IN ('corebank', 'corebank_internal')
             AND p.proname IN ('refuse_audit_change', 'events_immutable', 'verify_refuse_event_change',
                               'journal_immutable', 'deposits_append_only')),
          0::bigint, 'the five former append-only functions are gone');
SELECT is((SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE n.nspname IN ('corebank', 'corebank_internal') AND p.prosrc ILIKE '%append-only%'),
          0::bigint, 'no SQL function raises an append-only error of its own');

-- One row in each table, written the way the bank writes it.
SELECT pg_temp.today('2026-06-01');
UPDATE corebank.deposit_products SET annual_rate_bp = 365 WHERE code = 'SAV-STD';
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Rudo', 'N-AO-1') AS id;
CREATE TEMP TABLE acct AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-STD', 1000000) AS id;
CREATE TEMP TABLE frozen AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-STD', 1000) AS id;
SELECT pg_temp.capture(300);
SELECT corebank.core_accounts_freeze((SELECT id FROM frozen), '{"reason": "append-only test"}', pg_temp.maker());
SELECT corebank.core_customers_interaction_add((SELECT id FROM ids), '{"interactionType": "ENQUIRY", "summary": "x"}',
                                               pg_temp.operator());
SELECT corebank.core_customers_kyc_checks_run((SELECT id FROM ids), '{"checkTypes": ["sanctions_pep"]}', pg_temp.operator());
SELECT corebank.core_customers_kyc_review_record((SELECT id FROM ids), '{"notes": "ok"}', pg_temp.checker());
SELECT corebank.core_fx_rates_set('{"fromCurrency": "USD", "toCurrency": "ZWG", "rate": "26.5", "effectiveDate": "2026-05-01"}',
                                  pg_temp.maker());
SELECT pg_temp.today('2026-06-03');
SELECT corebank.core_interest_run('2026-06-02', pg_temp.operator());
SELECT pg_temp.register('append.only@example.com');
-- A followed reset link makes the registered user (names Test User) BASIC: one tier change.
INSERT INTO corebank.auth_reset_tokens (token_hash, user_id, expires_at)
SELECT sha256('append-only-reset'), u.id, now() + interval '30 minutes' FROM corebank.auth_users u
WHERE u.email = 'append.only@example.com';
UPDATE corebank.auth_reset_tokens SET used_at = now() WHERE token_hash = sha256('append-only-reset');
SELECT pg_temp.ingest('append-only-test', pg_temp.ev('ao-1', 'identity.registered',
                                                     '{"platform": "web", "userId": "append-only-u1"}'));
SELECT pg_temp.vsession('liveness', 'append-only-token');
SELECT corebank.verify_check_create(pg_temp.vkey(), 'append-only-check', pg_temp.h('append-only-check'),
                                    gen_random_uuid(), 'document', NULL, '[{"kind": "document"}]', 'offline',
                                    pg_temp.vchecks('document', ARRAY['pass']), NULL, NULL, NULL, NULL, NULL);
SELECT corebank_internal.data_migration_record(9901, '9901_append_only_test.sql', repeat('a', 64));
SELECT corebank.core_passbook_issue((SELECT id FROM acct), pg_temp.operator());
SELECT corebank.core_staff_role_create('{"key": "append_only", "name": "Append-only test"}', pg_temp.operator());
SELECT corebank.core_api_key_create('core', 'append-only test', ARRAY['read'], NULL, NULL,
                                    sha256('append-only-key'), 'cbk_ao', NULL);
-- The deferred balance check fires now, as at COMMIT: TRUNCATE refuses a
-- table with pending trigger events before its own triggers run.
SET CONSTRAINTS ALL IMMEDIATE;

SELECT ok((SELECT count(*) FROM append_only a
           WHERE NOT (xpath('/row/c/text()',
                            query_to_xml(format('SELECT count(*) AS c FROM corebank.%I', a.name), false, true, ''))
                      )[1]::text::bigint > 0) = 0,
          'every append-only table holds a row to refuse');

-- Direct SQL as the superuser: UPDATE, DELETE and TRUNCATE of each table.
-- The UPDATE changes the first column (for events, whose customer_id may
-- move, the payload).
CREATE TEMP TABLE attempts AS
SELECT a.name, o.operation,
       CASE o.operation
           WHEN 'UPDATE' THEN
               CASE a.name WHEN 'events' THEN $$UPDATE corebank.events SET payload = '{"x": 1}'$$
                           ELSE format('UPDATE corebank.%I SET %I = %I', a.name, first.attname, first.attname) END
           WHEN 'DELETE' THEN format('DELETE FROM corebank.%I', a.name)
           ELSE format('TRUNCATE corebank.%I CASCADE', a.name)
       END AS statement
FROM append_only a
CROSS JOIN (VALUES ('UPDATE'), ('DELETE'), ('TRUNCATE')) o (operation)
CROSS JOIN LATERAL (SELECT t.attname FROM pg_attribute t
                    WHERE t.attrelid = format('corebank.%I', a.name)::regclass AND t.attnum = 1) first;

SELECT throws_ok(t.statement, '42501', format('corebank.%s is append-only', t.name),
                 format('%s of corebank.%s is refused', t.operation, t.name))
FROM attempts t ORDER BY t.name, t.operation;

SELECT is(pg_temp.refusal(t.statement), format('42501: corebank.%s is append-only / %s refused', t.name, t.operation),
          format('%s of corebank.%s: SQLSTATE, message and detail', t.operation, t.name))
FROM attempts t WHERE t.name <> 'events' ORDER BY t.name, t.operation;

-- events: the one exception, and its detail.
SELECT is(pg_temp.refusal($$UPDATE corebank.events SET payload = '{"x": 1}'$$),
          '42501: corebank.events is append-only / UPDATE refused; only customer_id may change',
          'an event''s payload cannot change; the detail names the column that may');
SELECT is(pg_temp.refusal('DELETE FROM corebank.events'),
          '42501: corebank.events is append-only / DELETE refused; only customer_id may change',
          'nor can an event be deleted');
SELECT lives_ok($$UPDATE corebank.events SET customer_id = gen_random_uuid() WHERE source = 'append-only-test'$$,
                'a merge may re-point an event''s customer_id');

SELECT setval(b.name, coalesce(b.last_value, b.start_value), b.last_value IS NOT NULL) FROM sequences_before b;
SELECT is_empty($$SELECT format('%I.%I', s.schemaname, s.sequencename), s.last_value FROM pg_sequences s
                  WHERE s.schemaname IN ('corebank', 'corebank_internal')
                  EXCEPT SELECT name, last_value FROM sequences_before$$,
                'every sequence is back where the test found it');

SELECT * FROM finish();
ROLLBACK;
