-- branch_scoping_accounts.sql: branch scoping of accounts, statements,
-- passbooks and standing orders (issue 15; docs/core-banking.md "Branch
-- scoping").
--
-- Goal: with scoping on, a Harare teller meets a Bulawayo account, its
-- passbooks and its standing orders as if they did not exist: every read and
-- every amend answers exactly what an unknown id answers (CB404, same
-- message), lists leave them out (totals too), and opening an account for a
-- Bulawayo customer or in Bulawayo is 404; the teller's own branch works as
-- before. Head office staff, an application key (no staff member) and the
-- same teller with scoping off see and amend everything. Postings stay
-- unscoped: the Harare teller deposits into and transfers to the Bulawayo
-- account, and the standing order run pays Bulawayo's orders.
-- Method: one table of calls, one per API function, with placeholders for
-- the records they name. Each actor runs every call on a set of records of
-- its own (amends change state, so each run gets fresh ones) and compares
-- the outcome ('ok' or 'SQLSTATE message') with the expected one. An
-- unknown-id set, run unscoped, proves the 404s are the unknown-id answers.
BEGIN;
\ir helpers/deposits.sql
\ir helpers/scoping.sql
-- The fixtures' deposits and the postings below take sequence numbers.
\ir helpers/sequences.sql
SELECT plan(146);

SELECT pg_temp.today('2026-03-02');
-- Scoping on first: the scope is resolved when an actor is set.
SELECT pg_temp.scoping_on();
CREATE TEMP TABLE staff AS
    SELECT pg_temp.staff_at('HRE') AS hre, pg_temp.staff_at(NULL) AS head_office;

-- The records, made unscoped (a superuser psql session with no login row).
-- A set per run: `account` holds money, a passbook, and a standing order to
-- `other` (an account of the other branch); `pending`, `dormant` and `zero`
-- are there to be activated, reactivated and closed.
CREATE FUNCTION pg_temp.record_set(branch_code text, other uuid) RETURNS TABLE (
    customer uuid, account uuid, number text, pending uuid, dormant uuid, zero uuid, passbook uuid, standing_order uuid)
    LANGUAGE plpgsql
    AS $f$
DECLARE
    branch jsonb := jsonb_build_object('branchCode', branch_code);
BEGIN
    customer := pg_temp.customer('Rudo', 'N-' || branch_code || '-' || left(gen_random_uuid()::text, 8), branch);
    account := pg_temp.open(customer, 'CUR-STD', 50000);
    number := (SELECT a.account_number FROM corebank.ledger_accounts a WHERE a.id = account);
    pending := pg_temp.open(customer, 'TRUST-USD');
    dormant := pg_temp.open(customer, 'CUR-STD');
    PERFORM corebank_internal.account_status_set(dormant, 'DORMANT', 'no activity', pg_temp.operator());
    zero := pg_temp.open(customer, 'CUR-STD');
    passbook := (corebank.core_passbook_issue(account, pg_temp.operator()) ->> 'id')::uuid;
    IF other IS NOT NULL THEN
        standing_order := (corebank.core_standing_orders_create(jsonb_build_object(
            'sourceAccountId', account, 'targetAccountId', other, 'amountMinor', 100, 'frequency', 'MONTHLY',
            'startDate', '2026-03-02'), pg_temp.operator()) ->> 'id')::uuid;
    END IF;
    RETURN NEXT;
END
$f$;

CREATE TEMP TABLE sets (name text PRIMARY KEY, customer uuid, account uuid, number text, pending uuid, dormant uuid,
                        zero uuid, passbook uuid, standing_order uuid, other uuid);
INSERT INTO sets SELECT 'harare', r.*, NULL FROM pg_temp.record_set('HRE', NULL) r;
INSERT INTO sets SELECT 'bulawayo scoped', r.*, (SELECT account FROM sets WHERE name = 'harare')
FROM pg_temp.record_set('BYO', (SELECT account FROM sets WHERE name = 'harare')) r;
INSERT INTO sets SELECT 'bulawayo head office', r.*, (SELECT account FROM sets WHERE name = 'harare')
FROM pg_temp.record_set('BYO', (SELECT account FROM sets WHERE name = 'harare')) r;
INSERT INTO sets SELECT 'bulawayo off', r.*, (SELECT account FROM sets WHERE name = 'harare')
FROM pg_temp.record_set('BYO', (SELECT account FROM sets WHERE name = 'harare')) r;
-- Harare's own standing order pays Bulawayo: a target of another branch is no record of it.
UPDATE sets SET other = (SELECT account FROM sets WHERE name = 'bulawayo scoped') WHERE name = 'harare';
UPDATE sets SET standing_order = (corebank.core_standing_orders_create(jsonb_build_object(
    'sourceAccountId', account, 'targetAccountId', other, 'amountMinor', 100, 'frequency', 'MONTHLY',
    'startDate', '2026-03-02'), pg_temp.operator()) ->> 'id')::uuid
WHERE name = 'harare';
-- Payees: Harare's customer pays the Bulawayo account, Bulawayo's the Harare one.
CREATE TEMP TABLE payees AS
    SELECT (corebank.core_customers_beneficiary_add(customer, jsonb_build_object('name', 'Payee',
                'accountNumber', (SELECT a.account_number FROM corebank.ledger_accounts a WHERE a.id = other)),
                pg_temp.operator()) ->> 'id')::uuid AS id, name AS owner
    FROM sets WHERE name IN ('harare', 'bulawayo scoped');
-- Ids that name nothing: what an unknown record answers.
INSERT INTO sets VALUES ('unknown', gen_random_uuid(), gen_random_uuid(), 'AC9999999999', gen_random_uuid(),
                         gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(),
                         (SELECT account FROM sets WHERE name = 'harare'));

-- One call per API function; $x names the set's member x, $actor the acting staff member.
CREATE TEMP TABLE calls (n int PRIMARY KEY, fn text, call text, not_found text);
INSERT INTO calls VALUES
    (1, 'core_accounts_open',
     $$corebank.core_accounts_open(jsonb_build_object('customerId', $customer, 'productCode', 'CUR-STD'), $actor)$$,
     'Customer not found'),
    (2, 'core_accounts_get', 'corebank.core_accounts_get($account)', 'Account not found'),
    (3, 'core_accounts_get_by_number', 'corebank.core_accounts_get_by_number($number)', 'Account not found'),
    (4, 'core_accounts_balance', 'corebank.core_accounts_balance($account, NULL)', 'Account not found'),
    (5, 'core_accounts_status_history', 'corebank.core_accounts_status_history($account)', 'Account not found'),
    (6, 'core_statement (first page)', 'corebank.core_statement($account, NULL, NULL)', 'Account not found'),
    (7, 'core_statement (a page)', $$corebank.core_statement($account, '2026-03-01', '2026-03-02', 1, NULL, NULL, NULL, NULL)$$,
     'Account not found'),
    (8, 'core_interest_accruals_list', 'corebank.core_interest_accruals_list($account, NULL, NULL)', 'Account not found'),
    (9, 'core_accounts_freeze', $$corebank.core_accounts_freeze($account, '{"reason": "court order"}', $actor)$$,
     'Account not found'),
    (10, 'core_accounts_unfreeze', 'corebank.core_accounts_unfreeze($account, NULL, $actor)', 'Account not found'),
    (11, 'core_accounts_activate', 'corebank.core_accounts_activate($pending, NULL, $actor)', 'Account not found'),
    (12, 'core_accounts_reactivate', 'corebank.core_accounts_reactivate($dormant, NULL, $actor)', 'Account not found'),
    (13, 'core_passbook_issue', 'corebank.core_passbook_issue($zero, $actor)', 'Account not found'),
    (14, 'core_accounts_close', 'corebank.core_accounts_close($zero, NULL, $actor)', 'Account not found'),
    (15, 'core_passbook_list', 'corebank.core_passbook_list($account)', 'Account not found'),
    (16, 'core_passbook_get', 'corebank.core_passbook_get($passbook)', 'Passbook not found'),
    (17, 'core_passbook_unprinted', 'corebank.core_passbook_unprinted($passbook, NULL)', 'Passbook not found'),
    (18, 'core_passbook_print_confirm',
     $$corebank.core_passbook_print_confirm($passbook, jsonb_build_object('lastEntryId',
           coalesce((SELECT max(e.id) FROM corebank.journal_entries e WHERE e.ledger_account_id = $account), 1)), $actor)$$,
     'Passbook not found'),
    (19, 'core_passbook_reprint', $$corebank.core_passbook_reprint($passbook, '{"reason": "lost"}', $actor)$$,
     'Passbook not found'),
    (20, 'core_standing_orders_list', 'corebank.core_standing_orders_list($account)', 'Account not found'),
    (21, 'core_standing_orders_get', 'corebank.core_standing_orders_get($standing_order)', 'Standing order not found'),
    (22, 'core_standing_orders_pause', 'corebank.core_standing_orders_pause($standing_order, $actor)',
     'Standing order not found'),
    (23, 'core_standing_orders_resume', 'corebank.core_standing_orders_resume($standing_order, $actor)',
     'Standing order not found'),
    (24, 'core_standing_orders_cancel', 'corebank.core_standing_orders_cancel($standing_order, $actor)',
     'Standing order not found'),
    (25, 'core_standing_orders_create',
     $$corebank.core_standing_orders_create(jsonb_build_object('sourceAccountId', $account, 'targetAccountId', $other,
           'amountMinor', 100, 'frequency', 'WEEKLY', 'startDate', '2026-03-09'), $actor)$$,
     'Account not found');

-- 'ok' when the call returns something, else 'SQLSTATE message'. The
-- exception block is a subtransaction: a refused call leaves nothing behind.
CREATE FUNCTION pg_temp.outcome(call text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
    result jsonb;
BEGIN
    EXECUTE 'SELECT ' || call INTO result;
    RETURN CASE WHEN result IS NULL THEN 'null' ELSE 'ok' END;
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ' ' || SQLERRM;
END
$f$;

-- Runs every call, in order, on set `set_name` as `actor` (the scope is the
-- caller's act_as); `expect` is 'ok' or 'not found' (CB404 with the call's
-- unknown-id message).
CREATE FUNCTION pg_temp.run(set_name text, actor uuid, expect text, label text) RETURNS SETOF text LANGUAGE plpgsql AS $f$
DECLARE
    s sets;
    c calls;
    member text;
    sql text;
BEGIN
    SELECT * INTO STRICT s FROM sets WHERE name = set_name;
    FOR c IN SELECT * FROM calls ORDER BY n LOOP
        sql := replace(c.call, '$actor', quote_nullable(actor) || '::uuid');
        FOREACH member IN ARRAY ARRAY['customer', 'account', 'number', 'pending', 'dormant', 'zero', 'passbook',
                                     'standing_order', 'other'] LOOP
            sql := replace(sql, '$' || member, quote_nullable(to_jsonb(s) ->> member)
                                               || CASE member WHEN 'number' THEN '' ELSE '::uuid' END);
        END LOOP;
        RETURN NEXT is(pg_temp.outcome(sql), CASE expect WHEN 'ok' THEN 'ok' ELSE 'CB404 ' || c.not_found END,
                       format('%s: %s', label, c.fn));
    END LOOP;
END
$f$;

CREATE FUNCTION pg_temp.list_total(filter jsonb DEFAULT '{}') RETURNS bigint LANGUAGE sql AS $f$
    SELECT (corebank.core_accounts_list(filter || '{"size": 1}') ->> 'totalElements')::bigint
$f$;
CREATE FUNCTION pg_temp.deposit_accounts_at(branch_code text DEFAULT NULL) RETURNS bigint LANGUAGE sql AS $f$
    SELECT count(*) FROM corebank.deposit_accounts d JOIN corebank.ledger_accounts a ON a.id = d.id
    JOIN corebank.branches b ON b.id = a.branch_id WHERE branch_code IS NULL OR b.code = branch_code
$f$;
CREATE FUNCTION pg_temp.orders_listed(account uuid) RETURNS uuid[] LANGUAGE sql AS $f$
    SELECT array_agg((o ->> 'id')::uuid ORDER BY o ->> 'id') FROM jsonb_array_elements(corebank.core_standing_orders_list(account)) o
$f$;
CREATE FUNCTION pg_temp.set_member(set_name text, member text) RETURNS uuid LANGUAGE sql AS $f$
    SELECT (to_jsonb(s) ->> member)::uuid FROM sets s WHERE s.name = set_name
$f$;

-- Unscoped, an unknown id answers each call's not-found message (25).
SELECT pg_temp.run('unknown', (SELECT head_office FROM staff), 'not found', 'an unknown id');

-- A Harare teller, scoping on.
SELECT pg_temp.act_as((SELECT hre FROM staff));
-- Bulawayo's records answer as unknown ones (25), Harare's work (25).
SELECT pg_temp.run('bulawayo scoped', (SELECT hre FROM staff), 'not found', 'scoped Harare teller, a Bulawayo record');
SELECT pg_temp.run('harare', (SELECT hre FROM staff), 'ok', 'scoped Harare teller, a Harare record');
SELECT throws_ok('SELECT corebank.core_accounts_get(NULL)', 'CBV00', 'id: is required',
                 'a get without an id is still refused as such');
SELECT is(pg_temp.list_total(), pg_temp.deposit_accounts_at('HRE'), 'the account list counts Harare''s accounts only');
SELECT is((SELECT count(*) FROM jsonb_array_elements(corebank.core_accounts_list('{"size": 200}') -> 'content') a
           WHERE a ->> 'branchCode' <> 'HRE'), 0::bigint, 'and lists no account of another branch');
SELECT is(pg_temp.list_total(jsonb_build_object('customerId', pg_temp.set_member('bulawayo scoped', 'customer'))),
          0::bigint, 'a Bulawayo customer''s accounts are left out, total included');
SELECT is((SELECT count(*) FROM corebank.standing_orders o
           WHERE o.target_account_id = pg_temp.set_member('harare', 'account')), 3::bigint,
          'three Bulawayo orders pay into Harare''s account');
SELECT is(pg_temp.orders_listed(pg_temp.set_member('harare', 'account')),
          (SELECT array_agg(o.id ORDER BY o.id::text) FROM corebank.standing_orders o
           WHERE o.source_account_id = pg_temp.set_member('harare', 'account')),
          'Harare''s account lists its own orders, not the three Bulawayo orders paying into it');
SELECT throws_ok(format($$SELECT corebank.core_accounts_open(jsonb_build_object('customerId', %L::uuid,
                           'productCode', 'CUR-STD', 'branchCode', 'BYO'), %L::uuid)$$,
                        pg_temp.set_member('harare', 'customer'), (SELECT hre FROM staff)),
                 'CB404', 'Branch not found', 'opening an account in Bulawayo is 404 for the branch');
SELECT is(corebank.core_accounts_open(jsonb_build_object('customerId', pg_temp.set_member('harare', 'customer'),
                                                         'productCode', 'CUR-STD'), (SELECT hre FROM staff)) ->> 'branchCode',
          'HRE', 'an account the teller opens is Harare''s');
SELECT throws_ok(format($$SELECT corebank.core_standing_orders_create(jsonb_build_object('sourceAccountId', %L::uuid,
                           'beneficiaryId', %L::uuid, 'amountMinor', 100, 'frequency', 'WEEKLY', 'startDate', '2026-03-09'),
                           %L::uuid)$$, pg_temp.set_member('harare', 'account'),
                        (SELECT id FROM payees WHERE owner = 'bulawayo scoped'), (SELECT hre FROM staff)),
                 'CB404', 'Beneficiary not found', 'a Bulawayo customer''s payee is unknown to a standing order');
SELECT is(corebank.core_standing_orders_create(jsonb_build_object('sourceAccountId', pg_temp.set_member('harare', 'account'),
              'beneficiaryId', (SELECT id FROM payees WHERE owner = 'harare'), 'amountMinor', 100, 'frequency', 'WEEKLY',
              'startDate', '2026-03-09'), (SELECT hre FROM staff)) ->> 'targetAccountId',
          pg_temp.set_member('bulawayo scoped', 'account')::text,
          'a Harare payee at a Bulawayo account is paid by standing order');
-- Postings are not scoped: into and to Bulawayo's account, by the teller.
SELECT is(corebank.core_deposit(jsonb_build_object('accountId', pg_temp.set_member('bulawayo scoped', 'account'),
                                                   'amountMinor', 700), (SELECT hre FROM staff)) ->> 'status',
          'POSTED', 'the teller deposits into a Bulawayo account');
SELECT is(corebank.core_transfer(jsonb_build_object('fromAccountId', pg_temp.set_member('harare', 'account'),
                                                    'toAccountId', pg_temp.set_member('bulawayo scoped', 'account'),
                                                    'amountMinor', 300), (SELECT hre FROM staff)) ->> 'status',
          'POSTED', 'and transfers from a Harare account to it');
SELECT is(pg_temp.bal(pg_temp.set_member('bulawayo scoped', 'account')), 51000::bigint,
          'both land on the Bulawayo account');
SELECT ok((corebank.core_standing_orders_execute('2026-03-02', (SELECT hre FROM staff)) ->> 'succeeded')::int >= 3,
          'the standing order run the teller starts pays Bulawayo''s orders too');
SELECT is((SELECT last_run_date FROM corebank.standing_orders
           WHERE id = pg_temp.set_member('bulawayo scoped', 'standing_order')), DATE '2026-03-02',
          'the Bulawayo order ran');

-- Head office staff (no branch), scoping on: everything (25).
SELECT pg_temp.act_as((SELECT head_office FROM staff));
SELECT pg_temp.run('bulawayo head office', (SELECT head_office FROM staff), 'ok', 'head office, a Bulawayo record');
SELECT is(pg_temp.list_total(), pg_temp.deposit_accounts_at(), 'head office''s account list counts every account');
SELECT is(pg_temp.orders_listed(pg_temp.set_member('harare', 'account')),
          (SELECT array_agg(o.id ORDER BY o.id::text) FROM corebank.standing_orders o
           WHERE pg_temp.set_member('harare', 'account') IN (o.source_account_id, o.target_account_id)),
          'and every order of an account, the ones paying into it too');

-- An application key without a staff token acts for the institution.
SELECT pg_temp.act_as(NULL);
SELECT is(corebank.core_accounts_get(pg_temp.set_member('bulawayo scoped', 'account')) ->> 'branchCode', 'BYO',
          'an application key reads a Bulawayo account');
SELECT is(pg_temp.list_total(), pg_temp.deposit_accounts_at(), 'and lists every account');

-- The Harare teller with scoping off: as before issue 15 (25).
SELECT pg_temp.scoping_off();
SELECT pg_temp.act_as((SELECT hre FROM staff));
SELECT pg_temp.run('bulawayo off', (SELECT hre FROM staff), 'ok', 'scoping off, a Bulawayo record');
SELECT is(pg_temp.list_total(), pg_temp.deposit_accounts_at(), 'scoping off, the teller''s list counts every account');

SELECT pg_temp.sequences_put_back();

SELECT * FROM finish();
ROLLBACK;
