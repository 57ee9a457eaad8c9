-- branch_scoping_sql_logins.sql: what psql logins read with branch scoping
-- (issue 15; docs/reporting.md, docs/core-banking.md "Branch scoping").
--
-- Goal: a reporting login that a DBA gave a branch (staff_sql_logins) reads,
-- while scoping is on, only that branch's rows: of every table it reads
-- directly (row-level security) and of every masking view; with scoping
-- off, everything. A reporting login without a branch and an auditor login
-- read everything. A journal transaction between two branches is both
-- branches' business, shown whole. The login cannot set an actor's scope,
-- write staff_sql_logins or read the base customer tables. A login's branch
-- is given only to a role that exists and is no auditor (nor superuser),
-- and every change of it is a staff_audit row.
-- Method: records of Harare (HRE) and Bulawayo (BYO) made unscoped by the
-- superuser, each listed in `fx` with a label; the logins are made here
-- and each reads as itself (SET SESSION AUTHORIZATION: the scope is looked up
-- per session user); pg_temp.seen(relation) answers the labels of the
-- listed rows the reader sees there.
BEGIN;
\ir helpers/deposits.sql
\ir helpers/scoping.sql
\ir helpers/reporting.sql
\ir helpers/sequences.sql
SELECT plan(50);

SELECT pg_temp.today('2026-03-02');
SELECT pg_temp.scoping_on();

-- relation: corebank.<name> or corebank_reports.<name>; key: the column the id is in.
CREATE TEMP TABLE fx (relation text, key text, id text, label text);
CREATE TEMP TABLE people AS
    SELECT pg_temp.customer('Rudo', 'N-HRE-1', '{"branchCode": "HRE"}') AS hre,
           pg_temp.customer('Tendai', 'N-BYO-1', '{"branchCode": "BYO"}') AS byo;
CREATE TEMP TABLE accounts AS SELECT pg_temp.open(hre, 'CUR-STD') AS hre, pg_temp.open(byo, 'CUR-STD') AS byo FROM people;
CREATE TEMP TABLE staff AS
    SELECT pg_temp.staff_at('HRE') AS hre, pg_temp.staff_at('BYO') AS byo, pg_temp.staff_at(NULL) AS head_office;

INSERT INTO fx SELECT 'corebank_reports.customers', 'id', hre::text, 'HRE' FROM people
     UNION ALL SELECT 'corebank_reports.customers', 'id', byo::text, 'BYO' FROM people;
INSERT INTO fx SELECT 'corebank_reports.' || r.view, CASE r.view WHEN 'customer_profiles' THEN 'customer_id' ELSE 'id' END,
                      r.id::text, b.label
FROM people, LATERAL (VALUES (people.hre, 'HRE'), (people.byo, 'BYO')) AS b(customer, label),
     LATERAL pg_temp.personal_records(b.customer) r;
INSERT INTO fx SELECT 'corebank_reports.staff_identities', 'id', s.id::text, s.label
FROM staff, LATERAL (VALUES (staff.hre, 'HRE'), (staff.byo, 'BYO'), (staff.head_office, 'head office')) AS s(id, label);
INSERT INTO corebank.customers_graph (id, public_id, display_name, is_guest)
VALUES ('00000000-0000-4000-8000-0000000000bb', 'cus_bcdefghijklmnopqrstu', 'Rudo Moyo', false);
INSERT INTO corebank.customer_identifiers (kind, value, customer_id)
VALUES ('phone', '+263771112222', '00000000-0000-4000-8000-0000000000bb');
INSERT INTO fx VALUES ('corebank_reports.customer_identifiers', 'customer_id', '00000000-0000-4000-8000-0000000000bb',
                       'event graph');

-- Accounts and what hangs off them: a deposit account, its day totals and
-- status history, a passbook with its start mark, and a standing order
-- paying the other branch's account.
INSERT INTO fx SELECT t.relation, t.key, a.id::text, a.label
FROM accounts, LATERAL (VALUES (accounts.hre, 'HRE'), (accounts.byo, 'BYO')) AS a(id, label),
     (VALUES ('corebank.ledger_accounts', 'id'), ('corebank.deposit_accounts', 'id'),
             ('corebank.account_day_totals', 'account_id'), ('corebank.account_status_history', 'account_id'))
     AS t(relation, key);
INSERT INTO fx SELECT t.relation, t.key, p.id::text, a.label
FROM accounts, LATERAL (VALUES (accounts.hre, 'HRE'), (accounts.byo, 'BYO')) AS a(id, label),
     LATERAL (SELECT (corebank.core_passbook_issue(a.id, pg_temp.operator()) ->> 'id')::uuid AS id) p,
     (VALUES ('corebank.passbooks', 'id'), ('corebank.passbook_marks', 'passbook_id')) AS t(relation, key);
INSERT INTO fx SELECT 'corebank.standing_orders', 'id', corebank.core_standing_orders_create(jsonb_build_object(
                          'sourceAccountId', o.source, 'targetAccountId', o.target, 'amountMinor', 100,
                          'frequency', 'MONTHLY', 'startDate', '2026-03-02'), pg_temp.operator()) ->> 'id', o.label
FROM accounts, LATERAL (VALUES (accounts.hre, accounts.byo, 'HRE'), (accounts.byo, accounts.hre, 'BYO')) AS o(source, target, label);

-- Journal transactions: a deposit in each branch, a transfer from Harare to
-- Bulawayo (both branches'), and a pending journal parked by a teller of
-- each branch and by head office (its parked change is the maker's branch's).
CREATE TEMP TABLE txns (id uuid, label text);
INSERT INTO txns SELECT (pg_temp.put(hre, 5000) ->> 'id')::uuid, 'HRE deposit' FROM accounts
           UNION ALL SELECT (pg_temp.put(byo, 7000) ->> 'id')::uuid, 'BYO deposit' FROM accounts;
INSERT INTO txns SELECT (pg_temp.move(hre, byo, 100) ->> 'id')::uuid, 'HRE to BYO' FROM accounts;
CREATE TEMP TABLE journals AS
    SELECT j.label, corebank.core_transaction_capture(jsonb_build_object(
               'type', 'ADJUSTMENT', 'description', 'manual', 'branchCode', j.branch,
               'entries', jsonb_build_array(
                   jsonb_build_object('glAccountCode', '5200', 'side', 'DEBIT', 'amountMinor', 500),
                   jsonb_build_object('glAccountCode', '1000', 'side', 'CREDIT', 'amountMinor', 500))), j.maker) AS r
    FROM staff, LATERAL (VALUES ('HRE', 'HRE', staff.hre), ('BYO', 'BYO', staff.byo), ('head office', 'HO', staff.head_office))
                AS j(label, branch, maker);
INSERT INTO txns SELECT (r ->> 'id')::uuid, label || ' journal' FROM journals;
INSERT INTO fx SELECT 'corebank.transactions', 'id', id::text, label FROM txns;
INSERT INTO fx SELECT 'corebank.journal_entries', 'id', e.id::text, t.label
FROM txns t JOIN corebank.journal_entries e ON e.transaction_id = t.id;
INSERT INTO fx SELECT 'corebank.transaction_lines_proposed', 'transaction_id', t.id::text, t.label
FROM txns t WHERE t.label LIKE '% journal';
INSERT INTO fx SELECT 'corebank.parked_changes', 'id', (r ->> 'parkedChangeId'), label FROM journals;

-- The day's standing orders paid, and a day's interest on a savings account
-- of each branch (accruals per account, an accrual journal per branch).
SELECT ok((corebank.core_standing_orders_execute('2026-03-02', pg_temp.operator()) ->> 'succeeded')::int = 2,
          'fixture: both standing orders paid');
INSERT INTO fx SELECT 'corebank.standing_order_executions', 'standing_order_id', id, label FROM fx
WHERE relation = 'corebank.standing_orders';
CREATE TEMP TABLE savings AS
    SELECT pg_temp.open(hre, 'SAV-STD', 100000000) AS hre, pg_temp.open(byo, 'SAV-STD', 100000000) AS byo FROM people;
SELECT corebank.core_interest_run('2026-03-02', pg_temp.operator());
INSERT INTO fx SELECT 'corebank.interest_accruals', 'account_id', a.id::text, a.label
FROM savings, LATERAL (VALUES (savings.hre, 'HRE'), (savings.byo, 'BYO')) AS a(id, label);
INSERT INTO fx SELECT 'corebank.interest_accrual_journals', 'branch_id', pg_temp.branch(b)::text, b
FROM unnest(ARRAY['HRE', 'BYO']) AS b;

-- The labels of the listed rows of `relation` the reader sees, sorted.
CREATE FUNCTION pg_temp.seen(relation text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
    key text := (SELECT min(f.key) FROM fx f WHERE f.relation = seen.relation);
    labels text;
BEGIN
    EXECUTE format('SELECT string_agg(f.label, '','' ORDER BY f.label) FROM fx f
                    WHERE f.relation = %L AND f.id IN (SELECT x.%I::text FROM %s x)', relation, key, relation)
        INTO labels;
    RETURN coalesce(labels, '');
END
$f$;
-- Every relation the reader may read: "relation: labels", one per line.
CREATE FUNCTION pg_temp.seen_all() RETURNS text LANGUAGE sql AS $f$
    SELECT string_agg(r.relation || ': ' || pg_temp.seen(r.relation), E'\n' ORDER BY r.relation)
    FROM (SELECT DISTINCT f.relation FROM fx f) r WHERE has_table_privilege(r.relation, 'SELECT')
$f$;
-- What an unscoped reader of `role`'s rights sees: every listed row.
CREATE FUNCTION pg_temp.everything(role name) RETURNS text LANGUAGE sql AS $f$
    SELECT string_agg(r.relation || ': ' || r.labels, E'\n' ORDER BY r.relation)
    FROM (SELECT f.relation, string_agg(f.label, ',' ORDER BY f.label) AS labels FROM fx f GROUP BY f.relation) r
    WHERE has_table_privilege(role, r.relation, 'SELECT')
$f$;
GRANT SELECT ON fx TO PUBLIC;
SELECT is((SELECT count(DISTINCT relation) FROM fx), 25::bigint, 'records in 14 tables and 11 views');

-- The logins: one of Bulawayo, one without a branch, an auditor.
CREATE ROLE cb_pgtap_report_byo LOGIN IN ROLE corebank_reporting;
CREATE ROLE cb_pgtap_report_all LOGIN IN ROLE corebank_reporting;
CREATE ROLE cb_pgtap_auditor LOGIN IN ROLE corebank_auditor;
INSERT INTO corebank.staff_sql_logins (login, branch_id) VALUES ('cb_pgtap_report_byo', pg_temp.branch('HRE'));
UPDATE corebank.staff_sql_logins SET branch_id = pg_temp.branch('BYO') WHERE login = 'cb_pgtap_report_byo';

-- The Bulawayo login, scoping on: Bulawayo's rows only.
SET SESSION AUTHORIZATION cb_pgtap_report_byo;
SELECT is(pg_temp.seen('corebank.ledger_accounts'), 'BYO', 'BYO login, on: ledger_accounts, Bulawayo''s account');
SELECT is(pg_temp.seen('corebank.deposit_accounts'), 'BYO', 'deposit_accounts: by the account''s branch');
SELECT is(pg_temp.seen('corebank.account_day_totals'), 'BYO', 'account_day_totals: by the account''s branch');
SELECT is(pg_temp.seen('corebank.account_status_history'), 'BYO', 'account_status_history: by the account''s branch');
SELECT is(pg_temp.seen('corebank.passbooks'), 'BYO', 'passbooks: by the account''s branch');
SELECT is(pg_temp.seen('corebank.passbook_marks'), 'BYO', 'passbook_marks: by the passbook''s account');
SELECT is(pg_temp.seen('corebank.standing_orders'), 'BYO',
          'standing_orders: its source account''s branch (Harare''s order paying Bulawayo is Harare''s)');
SELECT is(pg_temp.seen('corebank.standing_order_executions'), 'BYO', 'standing_order_executions: by the order''s');
SELECT is(pg_temp.seen('corebank.interest_accruals'), 'BYO', 'interest_accruals: by the account''s branch');
SELECT is(pg_temp.seen('corebank.interest_accrual_journals'), 'BYO', 'interest_accrual_journals: its own branch');
SELECT is(pg_temp.seen('corebank.transactions'), 'BYO deposit,BYO journal,HRE to BYO',
          'transactions: Bulawayo''s and the transfer into Bulawayo');
SELECT is(pg_temp.seen('corebank.journal_entries'), 'BYO deposit,BYO deposit,HRE to BYO,HRE to BYO',
          'journal_entries: those transactions'' entries, the transfer''s Harare side too (shown whole)');
SELECT is(pg_temp.seen('corebank.transaction_lines_proposed'), 'BYO journal',
          'transaction_lines_proposed: Bulawayo''s pending journal');
SELECT is(pg_temp.seen('corebank.parked_changes'), 'BYO', 'parked_changes: the one its Bulawayo maker parked');
SELECT is(pg_temp.seen('corebank_reports.customers'), 'BYO', 'view customers: Bulawayo''s customer');
SELECT is(pg_temp.seen('corebank_reports.customer_profiles'), 'BYO', 'view customer_profiles');
SELECT is(pg_temp.seen('corebank_reports.kyc_checks'), 'BYO', 'view kyc_checks');
SELECT is(pg_temp.seen('corebank_reports.kyc_documents'), 'BYO', 'view kyc_documents');
SELECT is(pg_temp.seen('corebank_reports.kyc_reviews'), 'BYO', 'view kyc_reviews');
SELECT is(pg_temp.seen('corebank_reports.beneficiaries'), 'BYO', 'view beneficiaries');
SELECT is(pg_temp.seen('corebank_reports.beneficial_owners'), 'BYO', 'view beneficial_owners');
SELECT is(pg_temp.seen('corebank_reports.customer_cases'), 'BYO', 'view customer_cases');
SELECT is(pg_temp.seen('corebank_reports.customer_interactions'), 'BYO', 'view customer_interactions');
SELECT is(pg_temp.seen('corebank_reports.staff_identities'), 'BYO', 'view staff_identities: Bulawayo''s staff');
SELECT is(pg_temp.seen('corebank_reports.customer_identifiers'), '',
          'view customer_identifiers: the event graph belongs to no branch, so not to a scoped login');
SELECT is((SELECT count(*) FROM corebank.ledger_accounts WHERE branch_id <> pg_temp.branch('BYO')), 0::bigint,
          'a WHERE of its own cannot reach another branch''s rows');
SET ROLE corebank_reporting;
SELECT is(pg_temp.seen('corebank.ledger_accounts') || ' ' || pg_temp.seen('corebank_reports.customers'), 'BYO BYO',
          'after SET ROLE corebank_reporting, still Bulawayo''s (the scope follows the session user)');
RESET ROLE;

-- What it may not do.
SELECT throws_ok('SELECT corebank.actor_scope_set(NULL)', '42501', NULL,
                 'it cannot call actor_scope_set to leave its scope');
SELECT throws_ok($$INSERT INTO corebank.staff_sql_logins (login, branch_id) VALUES ('cb_pgtap_report_all', pg_temp.branch('HRE'))$$,
                 '42501', NULL, 'it cannot give a login a branch');
SELECT throws_ok($$DELETE FROM corebank.staff_sql_logins WHERE login = 'cb_pgtap_report_byo'$$,
                 '42501', NULL, 'nor remove its own');
SELECT throws_ok('SELECT count(*) FROM corebank.customers', '42501', NULL, 'nor read the customers table');
SELECT throws_ok('SELECT count(*) FROM corebank.beneficial_owners', '42501', NULL, 'nor beneficial_owners');
RESET SESSION AUTHORIZATION;

-- Without a branch, and an auditor: everything they may read, scoping on.
SET SESSION AUTHORIZATION cb_pgtap_report_all;
SELECT is(pg_temp.seen_all(), pg_temp.everything('corebank_reporting'),
          'a reporting login without a branch, on: every row of every table and view');
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION cb_pgtap_auditor;
SELECT is(pg_temp.seen_all(), pg_temp.everything('corebank_auditor'),
          'an auditor login, on: every row of every table and view it reads');
RESET SESSION AUTHORIZATION;
SELECT is((SELECT string_agg(DISTINCT relation, ',' ORDER BY relation) FROM fx
           WHERE relation LIKE 'corebank.%' AND has_table_privilege('corebank_auditor', relation, 'SELECT')),
          'corebank.account_day_totals,corebank.account_status_history,corebank.interest_accrual_journals,'
          'corebank.interest_accruals,corebank.journal_entries,corebank.parked_changes,'
          'corebank.transaction_lines_proposed,corebank.transactions',
          'the auditor''s tables among them: the journal, approvals, interest and account history');

-- Scoping off: the Bulawayo login reads everything. (The superuser reads
-- once, so the login's next read looks its scope up again.)
SELECT corebank.scope_branch();
SELECT pg_temp.scoping_off();
SET SESSION AUTHORIZATION cb_pgtap_report_byo;
SELECT is(pg_temp.seen_all(), pg_temp.everything('corebank_reporting'),
          'the Bulawayo login, scoping off: every row of every table and view');
RESET SESSION AUTHORIZATION;

-- The superuser owns the tables and bypasses the policies (so do the API
-- functions it owns); corebank_app reads no table.
SELECT is(pg_temp.seen_all(), pg_temp.everything('postgres'), 'the superuser reads everything');
SET ROLE corebank_app;
SELECT throws_ok('SELECT count(*) FROM corebank.ledger_accounts', '42501', NULL, 'corebank_app reads no table');
RESET ROLE;
SELECT is((SELECT count(*) FROM pg_class c WHERE c.relnamespace = 'corebank'::regnamespace AND c.relkind = 'r'
             AND has_table_privilege('corebank_reporting', c.oid, 'SELECT') AND NOT c.relrowsecurity
             AND c.relname IN (SELECT DISTINCT split_part(relation, '.', 2) FROM fx WHERE relation LIKE 'corebank.%')),
          0::bigint, 'every table above has row-level security');
SELECT set_eq($$SELECT c.relname::text FROM pg_class c WHERE c.relnamespace = 'corebank'::regnamespace AND c.relrowsecurity$$,
              ARRAY['ledger_accounts', 'deposit_accounts', 'account_credit_stripes', 'account_day_totals',
                    'account_month_ends', 'account_status_history', 'interest_accruals', 'interest_accrual_journals',
                    'passbooks', 'passbook_marks', 'standing_orders', 'standing_order_executions', 'transactions',
                    'journal_entries', 'transaction_lines_proposed', 'parked_changes'],
              'row-level security: every table of branch data the two roles read (credit stripes and month ends have no rows here)');
SELECT is((SELECT count(*) FROM pg_class c WHERE c.relrowsecurity AND c.relnamespace = 'corebank'::regnamespace
             AND (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid AND p.polcmd = 'r'
                    AND p.polroles IN (ARRAY['corebank_reporting'::regrole]::oid[], ARRAY['corebank_auditor'::regrole]::oid[])) <> 2),
          0::bigint, 'each has one SELECT policy for corebank_reporting and one for corebank_auditor');

-- A login's branch: only a role that exists and is no auditor; audited.
SELECT throws_ok($$INSERT INTO corebank.staff_sql_logins (login, branch_id) VALUES ('cb_pgtap_nobody_here', pg_temp.branch('HRE'))$$,
                 'CB404', 'login: no role named cb_pgtap_nobody_here', 'a login that is no role is refused');
SELECT throws_ok($$INSERT INTO corebank.staff_sql_logins (login, branch_id) VALUES ('cb_pgtap_auditor', pg_temp.branch('HRE'))$$,
                 'CB422', 'login: cb_pgtap_auditor is a member of corebank_auditor (or a superuser), who reads every branch',
                 'an auditor login cannot be given a branch');
SELECT throws_ok(format($$INSERT INTO corebank.staff_sql_logins (login, branch_id) VALUES (%L, pg_temp.branch('HRE'))$$,
                        current_user),
                 'CB422', format('login: %s is a member of corebank_auditor (or a superuser), who reads every branch',
                                 current_user),
                 'nor a superuser (who bypasses row-level security)');
SELECT throws_ok($$UPDATE corebank.staff_sql_logins SET login = 'cb_pgtap_auditor' WHERE login = 'cb_pgtap_report_byo'$$,
                 'CB422', NULL, 'nor by renaming a row');
DELETE FROM corebank.staff_sql_logins WHERE login = 'cb_pgtap_report_byo';
SELECT is((SELECT string_agg(coalesce(a.before ->> 'branchId', '-') || '>' || coalesce(a.after ->> 'branchId', '-')
                             || ' by ' || a.db_user, '; ' ORDER BY a.id)
           FROM corebank.staff_audit a WHERE a.action = 'login.branch' AND a.target = 'cb_pgtap_report_byo'),
          format('->%s by postgres; %s>%s by postgres; %s>- by postgres', pg_temp.branch('HRE'), pg_temp.branch('HRE'),
                 pg_temp.branch('BYO'), pg_temp.branch('BYO')),
          'the insert, the move and the delete are staff_audit rows (login.branch, before and after, the DBA)');

-- The policies' set form is the API's rule: for a Bulawayo teller, scoping on,
-- corebank_internal.transaction_visible picks the same transactions. (Last:
-- an actor's scope holds for every session user until the transaction ends.)
SELECT pg_temp.scoping_on();
SELECT pg_temp.act_as((SELECT byo FROM staff));
SELECT is((SELECT string_agg(t.label, ',' ORDER BY t.label) FROM txns t JOIN corebank.transactions x ON x.id = t.id
           WHERE corebank_internal.transaction_visible(x.id, x.branch_id)),
          'BYO deposit,BYO journal,HRE to BYO', 'the API''s rule agrees: the same transactions for a Bulawayo teller');

SELECT pg_temp.sequences_put_back();

SELECT * FROM finish();
ROLLBACK;
