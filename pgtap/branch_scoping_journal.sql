-- branch_scoping_journal.sql: journal transactions and parked changes under branch scoping (issue 15).
--
-- Goal: with scoping on, a Harare (HRE) staff member meets a transaction that
-- is Bulawayo's (BYO) alone as if it did not exist: get, posting or
-- abandoning a pending journal and parking a reversal are CB404 "Transaction
-- not found", and the search leaves it out (its total too). A transaction is
-- a branch's when its own branch is, or the branch of an account it posts to
-- or proposes to post to: a transfer between an HRE and a BYO account is
-- visible to both branches' tellers, whole. A parked change is its maker's
-- branch's (head office's when the maker has none): another branch's change
-- is CB404 "Approval not found" to get, approve and reject (before any
-- permission check), and left out of the approvals list and its total.
-- Head office staff, an application key (no actor) and the same teller with
-- scoping off see and amend everything. Capturing a journal is a posting, not
-- scoped.
-- Method: fixtures made unscoped (accounts at HRE and BYO, four posted
-- transactions, five captured journals), then the calls as each actor, with
-- the database starting with no transactions, so search totals are exact.
BEGIN;
SELECT plan(63);
\ir helpers/ledger.sql
\ir helpers/scoping.sql

-- The journals captured below take sequence numbers.
\ir helpers/sequences.sql

UPDATE corebank.platform_config SET today_override = '2024-06-15';
SELECT pg_temp.scoping_on();

CREATE TEMP TABLE staff (name text PRIMARY KEY, id uuid);
INSERT INTO staff VALUES ('hre', pg_temp.staff_at('HRE')), ('hre_sup', pg_temp.staff_at('HRE', '{supervisor}')),
                         ('byo', pg_temp.staff_at('BYO')), ('head', pg_temp.staff_at(NULL, '{supervisor}'));
CREATE FUNCTION pg_temp.who(name text) RETURNS uuid LANGUAGE sql STABLE
    AS $f$ SELECT s.id FROM staff s WHERE s.name = who.name $f$;
CREATE FUNCTION pg_temp.become(name text) RETURNS void LANGUAGE sql
    AS $f$ SELECT pg_temp.act_as(pg_temp.who(name)) $f$;

-- Fixtures: name -> id (transactions, accounts, parked changes).
CREATE TEMP TABLE fx (name text PRIMARY KEY, id uuid);
CREATE FUNCTION pg_temp.fx(name text) RETURNS uuid LANGUAGE sql STABLE
    AS $f$ SELECT f.id FROM fx f WHERE f.name = fx.name $f$;
CREATE FUNCTION pg_temp.account_at(branch text) RETURNS uuid LANGUAGE sql
    AS $f$
    SELECT (corebank.ledger_account_open(jsonb_build_object('glAccountCode', '2000', 'branchCode', branch)) ->> 'id')::uuid
$f$;
CREATE FUNCTION pg_temp.journal(branch text, entries jsonb) RETURNS uuid LANGUAGE sql
    AS $f$
    SELECT (corebank.core_transaction_capture(jsonb_build_object('type', 'ADJUSTMENT', 'branchCode', branch,
                                                                 'entries', entries), pg_temp.maker()) ->> 'id')::uuid
$f$;
CREATE FUNCTION pg_temp.gl_entries(amount bigint) RETURNS jsonb LANGUAGE sql IMMUTABLE
    AS $f$
    SELECT jsonb_build_array(jsonb_build_object('glAccountCode', '5200', 'side', 'DEBIT', 'amountMinor', amount),
                             jsonb_build_object('glAccountCode', '1000', 'side', 'CREDIT', 'amountMinor', amount))
$f$;
CREATE FUNCTION pg_temp.release_change(journal uuid) RETURNS uuid LANGUAGE sql STABLE
    AS $f$ SELECT t.parked_change_id FROM corebank.transactions t WHERE t.id = journal $f$;
-- The ids of a page's content that are fixtures, as fixture names, sorted.
CREATE FUNCTION pg_temp.names(page jsonb) RETURNS text[] LANGUAGE sql STABLE
    AS $f$
    SELECT coalesce(array_agg(f.name ORDER BY f.name), '{}')
    FROM jsonb_array_elements(page -> 'content') c JOIN fx f ON f.id = (c ->> 'id')::uuid
$f$;
CREATE FUNCTION pg_temp.search() RETURNS jsonb LANGUAGE sql STABLE
    AS $f$ SELECT corebank.core_transaction_search('{"size": 100}') $f$;
CREATE FUNCTION pg_temp.approvals(status text) RETURNS jsonb LANGUAGE sql STABLE
    AS $f$ SELECT corebank.core_approvals_list(status, 0, 100) $f$;

SELECT pg_temp.act_as(NULL);
INSERT INTO fx VALUES ('a_hre', pg_temp.account_at('HRE')), ('a_byo', pg_temp.account_at('BYO'));
INSERT INTO fx SELECT 't_hre', (pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1000),
                                                             pg_temp.account_line(pg_temp.fx('a_hre'), 'C', 1000)),
                                           'SCJ-HRE', jsonb_build_object('branchId', pg_temp.branch('HRE'))) ->> 'id')::uuid;
INSERT INTO fx SELECT 't_byo', (pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 900),
                                                             pg_temp.account_line(pg_temp.fx('a_byo'), 'C', 900)),
                                           'SCJ-BYO', jsonb_build_object('branchId', pg_temp.branch('BYO'))) ->> 'id')::uuid;
-- A transfer from the HRE account to the BYO account, booked at head office.
INSERT INTO fx SELECT 't_x', (pg_temp.post(jsonb_build_array(pg_temp.account_line(pg_temp.fx('a_hre'), 'D', 100),
                                                           pg_temp.account_line(pg_temp.fx('a_byo'), 'C', 100)),
                                         'SCJ-X') ->> 'id')::uuid;
-- The institution's own: GL accounts only, at head office.
INSERT INTO fx SELECT 't_gl', (pg_temp.post(jsonb_build_array(pg_temp.gl_line('5200', 'D', 50),
                                                            pg_temp.gl_line('1000', 'C', 50)), 'SCJ-GL') ->> 'id')::uuid;
-- Captured journals: released (may post) and rejected (may be abandoned) per
-- branch, and a BYO journal proposing a line on the HRE account.
INSERT INTO fx VALUES ('j_hre_rel', pg_temp.journal('HRE', pg_temp.gl_entries(10))),
                      ('j_hre_rej', pg_temp.journal('HRE', pg_temp.gl_entries(11))),
                      ('j_byo_rel', pg_temp.journal('BYO', pg_temp.gl_entries(12))),
                      ('j_byo_rej', pg_temp.journal('BYO', pg_temp.gl_entries(13))),
                      ('j_mixed', pg_temp.journal('BYO', jsonb_build_array(
                          jsonb_build_object('glAccountCode', '1000', 'side', 'DEBIT', 'amountMinor', 14),
                          jsonb_build_object('accountId', pg_temp.fx('a_hre'), 'side', 'CREDIT', 'amountMinor', 14))));
SELECT corebank.core_approval_approve(pg_temp.release_change(pg_temp.fx(j)), pg_temp.checker(), NULL)
FROM unnest(ARRAY['j_hre_rel', 'j_byo_rel']) j;
SELECT corebank.core_approval_reject(pg_temp.release_change(pg_temp.fx(j)), pg_temp.checker(), 'no')
FROM unnest(ARRAY['j_hre_rej', 'j_byo_rej']) j;
SELECT is((SELECT count(*) FROM corebank.transactions), 9::bigint, 'fixtures: the only transactions of the database');

-- 1. A Harare teller, scoping on.
SELECT pg_temp.become('hre');
SELECT is(corebank.core_transaction_get(pg_temp.fx('t_hre')) ->> 'reference', 'SCJ-HRE', 'HRE teller: gets an HRE transaction');
SELECT is(corebank.core_transaction_get(pg_temp.fx('t_x')) ->> 'reference', 'SCJ-X',
          'HRE teller: gets the head office transfer into the BYO account, from the HRE account');
SELECT is(jsonb_array_length(corebank.core_transaction_get(pg_temp.fx('t_x')) -> 'entries'), 2,
          'HRE teller: the whole transfer, both legs');
SELECT is(corebank.core_transaction_get(pg_temp.fx('j_mixed')) ->> 'status', 'PENDING',
          'HRE teller: gets a BYO journal proposing a line on an HRE account');
SELECT throws_ok($$SELECT corebank.core_transaction_get(pg_temp.fx('t_byo'))$$, 'CB404', 'Transaction not found',
                 'HRE teller: a BYO transaction is 404');
SELECT throws_ok($$SELECT corebank.core_transaction_get(pg_temp.fx('t_gl'))$$, 'CB404', 'Transaction not found',
                 'HRE teller: a head office GL journal is 404');
SELECT throws_ok($$SELECT corebank.core_transaction_get(pg_temp.fx('j_byo_rel'))$$, 'CB404', 'Transaction not found',
                 'HRE teller: a pending BYO journal is 404');
SELECT is(pg_temp.names(pg_temp.search()), '{j_hre_rej,j_hre_rel,j_mixed,t_hre,t_x}',
          'HRE teller: the search leaves BYO and head office transactions out');
SELECT is((pg_temp.search() ->> 'totalElements')::int, 5, 'HRE teller: and its total counts only the visible ones');
SELECT is((corebank.core_transaction_search('{"size": 2}') ->> 'totalPages')::int, 3, 'HRE teller: so do its pages');

SELECT throws_ok($$SELECT corebank.core_transaction_reverse_request(pg_temp.fx('t_byo'), 'x', pg_temp.who('hre'))$$,
                 'CB404', 'Transaction not found', 'HRE teller: parking the reversal of a BYO transaction is 404');
SELECT throws_ok($$SELECT corebank.parked_change_create('transaction.reverse', 'transaction', pg_temp.fx('t_gl')::text,
                                                      '{}', 'x', pg_temp.who('hre'))$$,
                 'CB404', 'Transaction not found', 'HRE teller: so is parking one through parked_change_create');
INSERT INTO fx SELECT 'c_hre', (corebank.core_transaction_reverse_request(pg_temp.fx('t_x'), 'wrong', pg_temp.who('hre'))
                                ->> 'id')::uuid;
SELECT is((SELECT status FROM corebank.parked_changes WHERE id = pg_temp.fx('c_hre')), 'PENDING',
          'HRE teller: parks the reversal of the transfer');
SELECT is((SELECT branch_id FROM corebank.parked_changes WHERE id = pg_temp.fx('c_hre')), pg_temp.branch('HRE'),
          'the change is the maker''s branch''s');
SELECT is((SELECT count(*) FROM corebank.parked_changes WHERE entity_id IN (pg_temp.fx('t_byo')::text, pg_temp.fx('t_gl')::text)),
          0::bigint, 'the refused reversals parked nothing');

SELECT throws_ok($$SELECT corebank.core_transaction_post(pg_temp.fx('j_byo_rel'), pg_temp.who('hre'))$$,
                 'CB404', 'Transaction not found', 'HRE teller: posting a released BYO journal is 404');
SELECT is(corebank.core_transaction_post(pg_temp.fx('j_hre_rel'), pg_temp.who('hre')) ->> 'status', 'POSTED',
          'HRE teller: posts a released HRE journal');
SELECT throws_ok($$SELECT corebank.core_transaction_abandon(pg_temp.fx('j_byo_rej'), pg_temp.who('hre'))$$,
                 'CB404', 'Transaction not found', 'HRE teller: abandoning a rejected BYO journal is 404');
SELECT is(corebank.core_transaction_abandon(pg_temp.fx('j_hre_rej'), pg_temp.who('hre')) ->> 'status', 'CANCELLED',
          'HRE teller: abandons a rejected HRE journal');
SELECT is((SELECT array_agg(status ORDER BY reference) FROM corebank.transactions
           WHERE id IN (pg_temp.fx('j_byo_rel'), pg_temp.fx('j_byo_rej'))), '{PENDING,PENDING}',
          'the refused post and abandon wrote nothing');
INSERT INTO fx SELECT 'j_by_hre', (corebank.core_transaction_capture(
    jsonb_build_object('type', 'ADJUSTMENT', 'branchCode', 'BYO', 'entries', pg_temp.gl_entries(15)),
    pg_temp.who('hre')) ->> 'id')::uuid;
SELECT is((SELECT branch_id FROM corebank.transactions WHERE id = pg_temp.fx('j_by_hre')), pg_temp.branch('BYO'),
          'HRE teller: captures a journal at BYO (capturing is a posting, not scoped)');
INSERT INTO fx SELECT 'c_hre_rel', pg_temp.release_change(pg_temp.fx('j_by_hre'));
SELECT is(pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 5), pg_temp.account_line(pg_temp.fx('a_byo'), 'C', 5)),
                       'SCJ-DEP') ->> 'status', 'POSTED', 'HRE teller: posts into the BYO account');

-- 2. A Bulawayo teller, scoping on: the transfer is theirs too.
SELECT pg_temp.become('byo');
SELECT is(corebank.core_transaction_get(pg_temp.fx('t_x')) ->> 'reference', 'SCJ-X',
          'BYO teller: gets the transfer into the BYO account');
SELECT throws_ok($$SELECT corebank.core_transaction_get(pg_temp.fx('t_hre'))$$, 'CB404', 'Transaction not found',
                 'BYO teller: an HRE transaction is 404');
SELECT is(pg_temp.names(pg_temp.search()), '{j_by_hre,j_byo_rej,j_byo_rel,j_mixed,t_byo,t_x}',
          'BYO teller: the search shows BYO''s and the transfer');
INSERT INTO fx SELECT 'c_byo', (corebank.core_transaction_reverse_request(pg_temp.fx('t_byo'), 'wrong', pg_temp.who('byo'))
                                ->> 'id')::uuid;
SELECT is((SELECT branch_id FROM corebank.parked_changes WHERE id = pg_temp.fx('c_byo')), pg_temp.branch('BYO'),
          'BYO teller: parks the reversal of a BYO transaction, a BYO change');

-- A change parked by head office staff is head office's.
SELECT pg_temp.become('head');
INSERT INTO fx SELECT 'c_head', (corebank.core_transaction_reverse_request(pg_temp.fx('t_gl'), 'wrong', pg_temp.who('head'))
                                 ->> 'id')::uuid;
SELECT is((SELECT branch_id FROM corebank.parked_changes WHERE id = pg_temp.fx('c_head')), NULL::uuid,
          'a change parked by head office staff has no branch');
SELECT is((SELECT count(*) FROM corebank.parked_changes WHERE maker_id = pg_temp.maker() AND branch_id IS NULL), 5::bigint,
          'nor do the changes of a maker who is no staff identity');
SELECT throws_ok($$UPDATE corebank.parked_changes SET branch_id = pg_temp.branch('HRE') WHERE id = pg_temp.fx('c_head')$$,
                 'CB422', 'a parked change''s branch_id cannot change',
                 'a pending change''s branch is frozen with its proposal: nobody moves it into a branch''s queue');

-- 3. A Harare supervisor (and the teller), scoping on: approvals.
SELECT pg_temp.become('hre_sup');
SELECT is(pg_temp.names(pg_temp.approvals('PENDING')), '{c_hre,c_hre_rel}',
          'HRE supervisor: the queue holds the changes HRE staff parked only');
SELECT is((pg_temp.approvals('PENDING') ->> 'totalElements')::int, 2, 'HRE supervisor: and counts only them');
SELECT is((pg_temp.approvals(NULL) ->> 'totalElements')::int, 2,
          'HRE supervisor: every status: head office''s decided releases are left out too');
SELECT is(corebank.core_approval_get(pg_temp.fx('c_hre')) ->> 'operation', 'transaction.reverse',
          'HRE supervisor: gets an HRE change');
SELECT throws_ok($$SELECT corebank.core_approval_get(pg_temp.fx('c_byo'))$$, 'CB404', 'Approval not found',
                 'HRE supervisor: a BYO change is 404');
SELECT throws_ok($$SELECT corebank.core_approval_get(pg_temp.fx('c_head'))$$, 'CB404', 'Approval not found',
                 'HRE supervisor: a head office change is 404');
SELECT throws_ok($$SELECT corebank.core_approval_approve(pg_temp.fx('c_byo'), pg_temp.who('hre_sup'), NULL)$$,
                 'CB404', 'Approval not found', 'HRE supervisor: approving a BYO change is 404');
SELECT throws_ok($$SELECT corebank.core_approval_reject(pg_temp.fx('c_byo'), pg_temp.who('hre_sup'), 'no')$$,
                 'CB404', 'Approval not found', 'HRE supervisor: rejecting it is 404');
SELECT throws_ok($$SELECT corebank.core_approval_approve(pg_temp.fx('c_head'), pg_temp.who('hre_sup'), NULL)$$,
                 'CB404', 'Approval not found', 'HRE supervisor: approving a head office change is 404');
SELECT throws_ok($$SELECT corebank.parked_change_approve(pg_temp.fx('c_byo'), pg_temp.who('hre_sup'), NULL)$$,
                 'CB404', 'Approval not found', 'HRE supervisor: so is approving it through parked_change_approve');
SELECT throws_ok($$SELECT corebank.parked_change_reject(pg_temp.fx('c_byo'), pg_temp.who('hre_sup'), 'no')$$,
                 'CB404', 'Approval not found', 'and rejecting it through parked_change_reject');
SELECT pg_temp.become('hre');
SELECT throws_ok($$SELECT corebank.core_approval_approve(pg_temp.fx('c_byo'), pg_temp.who('hre'), NULL)$$,
                 'CB404', 'Approval not found',
                 'HRE teller without the check permission: 404 before 403, so the answer tells nothing');
SELECT pg_temp.become('hre_sup');
SELECT is((SELECT array_agg(status ORDER BY status) FROM corebank.parked_changes
           WHERE id IN (pg_temp.fx('c_byo'), pg_temp.fx('c_head'))), '{PENDING,PENDING}',
          'the refused decisions wrote nothing');
SELECT is(corebank.core_approval_approve(pg_temp.fx('c_hre'), pg_temp.who('hre_sup'), NULL) ->> 'status', 'APPROVED',
          'HRE supervisor: approves the HRE change');
SELECT is((SELECT status FROM corebank.transactions WHERE id = pg_temp.fx('t_x')), 'REVERSED', 'and it is applied');

-- 4. Head office staff, scoping on: everything.
SELECT pg_temp.become('head');
SELECT is(corebank.core_transaction_get(pg_temp.fx('t_byo')) ->> 'reference', 'SCJ-BYO', 'head office: gets a BYO transaction');
SELECT is(corebank.core_transaction_get(pg_temp.fx('t_gl')) ->> 'reference', 'SCJ-GL', 'head office: gets its GL journal');
SELECT is((pg_temp.search() ->> 'totalElements')::bigint, (SELECT count(*) FROM corebank.transactions),
          'head office: the search counts every transaction');
SELECT is((pg_temp.approvals(NULL) ->> 'totalElements')::bigint, (SELECT count(*) FROM corebank.parked_changes),
          'head office: the approvals list counts every change');
SELECT is(corebank.core_approval_get(pg_temp.fx('c_byo')) ->> 'status', 'PENDING', 'head office: gets a BYO change');
SELECT is(corebank.core_approval_approve(pg_temp.fx('c_byo'), pg_temp.who('head'), NULL) ->> 'status', 'APPROVED',
          'head office: approves a BYO change');
SELECT is(corebank.core_transaction_post(pg_temp.fx('j_byo_rel'), pg_temp.who('head')) ->> 'status', 'POSTED',
          'head office: posts a released BYO journal');
SELECT is(corebank.core_transaction_abandon(pg_temp.fx('j_byo_rej'), pg_temp.who('head')) ->> 'status', 'CANCELLED',
          'head office: abandons a rejected BYO journal');

-- 5. An application key (no actor), scoping on: everything.
SELECT pg_temp.act_as(NULL);
SELECT is(corebank.core_transaction_get(pg_temp.fx('t_hre')) ->> 'reference', 'SCJ-HRE', 'no actor: gets an HRE transaction');
SELECT is((pg_temp.search() ->> 'totalElements')::bigint, (SELECT count(*) FROM corebank.transactions),
          'no actor: the search counts every transaction');
SELECT is(corebank.core_approval_get(pg_temp.fx('c_head')) ->> 'status', 'PENDING', 'no actor: gets a head office change');

-- 6. The Harare staff with scoping off: everything, as before issue 15.
SELECT pg_temp.scoping_off();
SELECT pg_temp.become('hre');
SELECT is(corebank.core_transaction_get(pg_temp.fx('t_byo')) ->> 'reference', 'SCJ-BYO', 'scoping off: HRE teller gets a BYO transaction');
SELECT is(corebank.core_transaction_get(pg_temp.fx('t_gl')) ->> 'reference', 'SCJ-GL', 'scoping off: and the GL journal');
SELECT is((pg_temp.search() ->> 'totalElements')::bigint, (SELECT count(*) FROM corebank.transactions),
          'scoping off: the search counts every transaction');
SELECT pg_temp.become('hre_sup');
SELECT is((pg_temp.approvals(NULL) ->> 'totalElements')::bigint, (SELECT count(*) FROM corebank.parked_changes),
          'scoping off: the approvals list counts every change');
SELECT is(corebank.core_approval_get(pg_temp.fx('c_head')) ->> 'status', 'PENDING', 'scoping off: gets a head office change');
SELECT is(corebank.core_approval_approve(pg_temp.fx('c_head'), pg_temp.who('hre_sup'), NULL) ->> 'status', 'APPROVED',
          'scoping off: HRE supervisor approves a head office change');

SELECT pg_temp.sequences_put_back();

SELECT * FROM finish();
ROLLBACK;
