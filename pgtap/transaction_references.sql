-- transaction_references.sql: a transaction's references (branch, reversed
-- and reversing transaction, parked change) and an idempotency key's
-- transaction, checked since 1.8 by probes of the referenced primary key
-- (transaction_references_check, idempotency_key_references_check) instead of
-- row-level foreign keys.
--
-- Goal: whatever a superuser (this test's role) writes with direct SQL, no
-- transaction names a branch, transaction or parked change that does not
-- exist, and no idempotency key outlives its commit naming a transaction that
-- does not exist; the rows they name cannot be deleted. Method: throws_ok
-- with the SQLSTATE and message for each attempt, pg_temp.refusal for the
-- detail, counts that show a refused statement wrote nothing, and lives_ok
-- for what a foreign key let through (a key written before its transaction,
-- a claim taken back before the commit, a key with no transaction).
BEGIN;
SELECT plan(26);
\ir helpers/ledger.sql

UPDATE corebank.platform_config SET today_override = '2024-06-15';
CREATE TEMP TABLE acct AS SELECT pg_temp.open_account('2000', 500) AS id;
CREATE TEMP TABLE t AS SELECT (pg_temp.deposit((SELECT id FROM acct), 10000, 'T-1') ->> 'id')::uuid AS id;
CREATE TEMP TABLE parked AS
    SELECT (corebank.parked_change_create('period.close', 'period', '2024-01', '{}', 'close', pg_temp.maker())
            ->> 'id')::uuid AS id;

-- A direct INSERT of a PENDING transaction, with each reference replaceable.
CREATE FUNCTION pg_temp.pending(id uuid, branch_id uuid DEFAULT NULL, reverses_id uuid DEFAULT NULL,
                                reversed_by_id uuid DEFAULT NULL, parked_change_id uuid DEFAULT NULL) RETURNS text
    LANGUAGE sql STABLE AS $f$
    SELECT format('INSERT INTO corebank.transactions (id, reference, type, status, value_date, branch_id, channel, '
                  'operator_id, reverses_id, reversed_by_id, parked_change_id) '
                  'VALUES (%L, ''DIRECT'', ''ADJUSTMENT'', ''PENDING'', ''2024-06-15'', %L, ''TEST'', %L, %L, %L, %L)',
                  id, coalesce(branch_id, pg_temp.branch()), pg_temp.operator(), reverses_id, reversed_by_id,
                  parked_change_id)
$f$;

-- The checks are in place, the foreign keys they replace are not.
SELECT trigger_is('corebank', 'transactions', 'transactions_check_references', 'corebank_internal',
                  'transaction_references_check', 'a transaction''s references are probed before it is written');
SELECT is((SELECT count(*)::int FROM pg_constraint
           WHERE conrelid = 'corebank.transactions'::regclass AND contype = 'f'), 0,
          'transactions have no row-level foreign keys left');
SELECT trigger_is('corebank', 'idempotency_keys', 'idempotency_keys_check_transaction', 'corebank_internal',
                  'idempotency_key_references_check', 'an idempotency key''s transaction is probed');
SELECT is((SELECT count(*)::int FROM pg_constraint
           WHERE conrelid = 'corebank.idempotency_keys'::regclass AND contype = 'f'), 0,
          'idempotency keys have no row-level foreign key left');

-- A transaction naming a row that does not exist: 23503, whoever writes.
SELECT throws_ok(pg_temp.pending(gen_random_uuid(), branch_id => gen_random_uuid()), '23503',
                 'a transaction refers to a branch that does not exist', 'an unknown branch is refused');
SELECT throws_ok(pg_temp.pending(gen_random_uuid(), reverses_id => gen_random_uuid()), '23503',
                 'a transaction refers to a reversed transaction that does not exist',
                 'an unknown reversed transaction is refused');
SELECT throws_ok(pg_temp.pending(gen_random_uuid(), reversed_by_id => gen_random_uuid()), '23503',
                 'a transaction refers to a reversing transaction that does not exist',
                 'an unknown reversing transaction is refused (before the CHECKs look at the row)');
SELECT throws_ok(pg_temp.pending(gen_random_uuid(), parked_change_id => gen_random_uuid()), '23503',
                 'a transaction refers to a parked change that does not exist', 'an unknown parked change is refused');
SELECT is(pg_temp.refusal(pg_temp.pending('00000000-0000-4000-8000-0000000000c1',
                                          branch_id => '00000000-0000-4000-8000-0000000000c2')),
          '23503: a transaction refers to a branch that does not exist / '
          'transaction 00000000-0000-4000-8000-0000000000c1, branch_id',
          'the detail names the transaction and the column');

-- One bad row refuses the whole statement.
CREATE TEMP TABLE before AS SELECT count(*) AS transactions FROM corebank.transactions;
SELECT throws_ok(format($$INSERT INTO corebank.transactions (id, reference, type, status, value_date, branch_id,
                                                            channel, operator_id)
                         VALUES (gen_random_uuid(), 'GOOD', 'ADJUSTMENT', 'PENDING', '2024-06-15', %1$L, 'TEST', %2$L),
                                (gen_random_uuid(), 'BAD', 'ADJUSTMENT', 'PENDING', '2024-06-15', %3$L, 'TEST', %2$L)$$,
                        pg_temp.branch(), pg_temp.operator(), gen_random_uuid()),
                 '23503', 'a transaction refers to a branch that does not exist',
                 'a statement whose second row names an unknown branch is refused');
SELECT is((SELECT count(*) FROM corebank.transactions), (SELECT transactions FROM before),
          'and neither row was written');

-- What exists is found: the branch, a transaction and a parked change.
SELECT lives_ok(pg_temp.pending('00000000-0000-4000-8000-0000000000d1', reverses_id => (SELECT id FROM t),
                                parked_change_id => (SELECT id FROM parked)),
                'a transaction naming an existing branch, transaction and parked change is written');
SELECT lives_ok(pg_temp.pending('00000000-0000-4000-8000-0000000000d2', branch_id => pg_temp.branch('HO')),
                'head office, the branch every posting names, is found');

-- An UPDATE is probed for the references it changes.
SELECT throws_ok($$UPDATE corebank.transactions SET parked_change_id = gen_random_uuid()
                   WHERE id = '00000000-0000-4000-8000-0000000000d2'$$,
                 '23503', 'a transaction refers to a parked change that does not exist',
                 'a pending transaction''s approval cannot be set to an unknown parked change');
SELECT throws_ok($$UPDATE corebank.transactions SET status = 'REVERSED', reversed_by_id = gen_random_uuid()
                   WHERE id = (SELECT id FROM t)$$,
                 '23503', 'a transaction refers to a reversing transaction that does not exist',
                 'a posted transaction cannot be marked reversed by an unknown transaction');
SELECT lives_ok($$UPDATE corebank.transactions SET parked_change_id = (SELECT id FROM parked)
                  WHERE id = '00000000-0000-4000-8000-0000000000d2'$$,
                'a pending transaction''s approval can be set to a parked change that exists');
SELECT corebank.core_branch_create('{"code": "REFB", "name": "References", "city": "Gweru"}', pg_temp.maker());
SELECT throws_ok($$UPDATE corebank.transactions SET branch_id = pg_temp.branch('REFB') WHERE id = (SELECT id FROM t)$$,
                 'CB422', NULL, 'a transaction''s branch cannot be changed, even to a branch that exists');

-- The rows a transaction names cannot go away.
SELECT throws_ok($$DELETE FROM corebank.parked_changes WHERE id = (SELECT id FROM parked)$$, 'CB422',
                 'parked changes cannot be deleted', 'a parked change cannot be deleted');
SELECT throws_ok($$DELETE FROM corebank.transactions WHERE id = (SELECT id FROM t)$$, 'CB422',
                 'transactions cannot be deleted; reverse a posted transaction instead', 'nor a transaction');
SELECT throws_ok($$DELETE FROM corebank.branches WHERE id = pg_temp.branch()$$, 'CB422',
                 'branches are never deleted; deactivate the branch instead', 'nor a branch');

-- An idempotency key names its transaction by the commit.
SELECT throws_ok($$INSERT INTO corebank.idempotency_keys (scope, key, request_hash, transaction_id)
                   VALUES ('core.money', 'ref-dangling', sha256('x'), '00000000-0000-4000-8000-0000000000e1');
                   SET CONSTRAINTS corebank.idempotency_keys_check_transaction IMMEDIATE$$,
                 '23503', 'an idempotency key refers to a transaction that does not exist',
                 'a key naming no transaction is refused at the latest at commit, whoever writes it');
SELECT is(pg_temp.refusal($$INSERT INTO corebank.idempotency_keys (scope, key, request_hash, transaction_id)
                            VALUES ('core.money', 'ref-dangling', sha256('x'), '00000000-0000-4000-8000-0000000000e1');
                            SET CONSTRAINTS corebank.idempotency_keys_check_transaction IMMEDIATE$$),
          '23503: an idempotency key refers to a transaction that does not exist / '
          'scope core.money, transaction 00000000-0000-4000-8000-0000000000e1',
          'the detail names the key''s scope and the missing transaction');
SELECT lives_ok(format($$INSERT INTO corebank.idempotency_keys (scope, key, request_hash, transaction_id)
                         VALUES ('core.money', 'ref-before', sha256('x'), '00000000-0000-4000-8000-0000000000e2');
                         %s;
                         SET CONSTRAINTS corebank.idempotency_keys_check_transaction IMMEDIATE;
                         SET CONSTRAINTS corebank.idempotency_keys_check_transaction DEFERRED$$,
                       pg_temp.pending('00000000-0000-4000-8000-0000000000e2')),
                'a key written before its transaction passes once the transaction is written (a grouped claim)');
SELECT lives_ok($$INSERT INTO corebank.idempotency_keys (scope, key, request_hash, transaction_id)
                  VALUES ('core.money', 'ref-released', sha256('x'), '00000000-0000-4000-8000-0000000000e3');
                  DELETE FROM corebank.idempotency_keys WHERE scope = 'core.money' AND key = 'ref-released';
                  SET CONSTRAINTS corebank.idempotency_keys_check_transaction IMMEDIATE;
                  SET CONSTRAINTS corebank.idempotency_keys_check_transaction DEFERRED$$,
                'a claim taken back before the commit is not checked');
SELECT lives_ok($$INSERT INTO corebank.idempotency_keys (scope, key, request_hash)
                  VALUES ('core.money', 'ref-unset', sha256('x'));
                  SET CONSTRAINTS corebank.idempotency_keys_check_transaction IMMEDIATE;
                  SET CONSTRAINTS corebank.idempotency_keys_check_transaction DEFERRED$$,
                'a claim with no transaction yet (a single posting''s) is not checked');
SELECT throws_ok($$UPDATE corebank.idempotency_keys SET transaction_id = '00000000-0000-4000-8000-0000000000e4'
                   WHERE scope = 'core.money' AND key = 'ref-unset';
                   SET CONSTRAINTS corebank.idempotency_keys_check_transaction IMMEDIATE$$,
                 '23503', 'an idempotency key refers to a transaction that does not exist',
                 'completing a claim with an unknown transaction is refused');

SELECT * FROM finish();
ROLLBACK;
