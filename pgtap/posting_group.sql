-- posting_group.sql: corebank.core_postings, N single transfer requests
-- decided and written in one call (issue 12 part 1, extension/pg/posting_group.cpp).
--
-- Goal: a request posted in a group is posted exactly as core_transfer
-- would post it (the same rows, the same response, the same idempotency
-- record, so that a replay through either function answers the same bytes);
-- a request the group does not post is answered ALONE and leaves nothing
-- behind (no row, no key claim), so that the single function gives its
-- answer; requests in one group see each other's balances (a debit that the
-- earlier requests' debits leave uncovered goes alone); a malformed call is
-- refused whole. Method: call the face from SQL as the tier does, compare
-- with core_transfer on the same requests, read the journal and the keys.
BEGIN;
SELECT plan(55);
\ir helpers/deposits.sql

SELECT pg_temp.today('2026-03-02');
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Rudo', 'N-91') AS id;
CREATE TEMP TABLE acc AS
SELECT 'a' AS name, pg_temp.open((SELECT id FROM ids), 'CUR-STD', 100000) AS id
UNION ALL SELECT 'b', pg_temp.open((SELECT id FROM ids), 'CUR-STD', 100000)
UNION ALL SELECT 'c', pg_temp.open((SELECT id FROM ids), 'CUR-STD', 5000)
UNION ALL SELECT 'z', pg_temp.open((SELECT id FROM ids), 'CUR-ZWG', 500000)
UNION ALL SELECT 'fd', pg_temp.open((SELECT id FROM ids), 'FD-3M', 100000);
CREATE FUNCTION pg_temp.acc(name text) RETURNS uuid LANGUAGE sql STABLE
    AS $f$ SELECT a.id FROM acc a WHERE a.name = $1 $f$;
-- One element of a group: a transfer request.
CREATE FUNCTION pg_temp.t(source text, target text, amount bigint, extra jsonb DEFAULT '{}') RETURNS jsonb
    LANGUAGE sql STABLE
    AS $f$ SELECT jsonb_build_object('operation', 'transfer', 'request',
                                     jsonb_build_object('fromAccountId', pg_temp.acc(source), 'toAccountId',
                                                        pg_temp.acc(target), 'amountMinor', amount) || extra) $f$;
-- Calls the face with one actor (the operator) per request.
CREATE FUNCTION pg_temp.group_of(VARIADIC requests jsonb[]) RETURNS jsonb LANGUAGE sql
    AS $f$ SELECT corebank.core_postings(to_jsonb(requests), array_fill(pg_temp.operator(), ARRAY[cardinality(requests)])) $f$;
-- A response without what differs between two postings of one request.
CREATE FUNCTION pg_temp.shape(response jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE
    AS $f$ SELECT response - '{id,reference,hash,chain,createdAt,postedAt,updatedAt}'::text[] $f$;

-- The face.
SELECT is((SELECT l.lanname || ' ' || p.prosecdef FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
           WHERE p.oid = 'corebank.core_postings(jsonb, uuid[])'::regprocedure),
          'c true', 'core_postings is a C function, SECURITY DEFINER');
SELECT ok(has_function_privilege('corebank_app', 'corebank.core_postings(jsonb, uuid[])', 'EXECUTE'),
          'the tier''s role may call it');
SELECT ok(NOT has_function_privilege('public', 'corebank.core_postings(jsonb, uuid[])', 'EXECUTE'),
          'PUBLIC may not');

-- A malformed call is refused whole.
SELECT throws_ok($$SELECT corebank.core_postings('{}', ARRAY[pg_temp.operator()])$$,
                 'CBV00', 'requests: must be a JSON array of 1 to 256 postings', 'not an array');
SELECT throws_ok($$SELECT corebank.core_postings('[]', '{}')$$,
                 'CBV00', 'requests: must be a JSON array of 1 to 256 postings', 'an empty array');
SELECT throws_ok($$SELECT corebank.core_postings((SELECT jsonb_agg(pg_temp.t('a', 'b', 1)) FROM generate_series(1, 257)),
                                                 array_fill(pg_temp.operator(), ARRAY[257]))$$,
                 'CBV00', 'actors: must have at most 256 elements', '257 requests');
SELECT throws_ok($$SELECT corebank.core_postings(jsonb_build_array(pg_temp.t('a', 'b', 1), pg_temp.t('a', 'b', 1)),
                                                 ARRAY[pg_temp.operator()])$$,
                 'CBV00', 'actors: must name one actor per request', 'fewer actors than requests');
SELECT throws_ok($$SELECT corebank.core_postings(jsonb_build_array(pg_temp.t('a', 'b', 1)), ARRAY[NULL::uuid])$$,
                 'CBV00', 'actors[0]: is required', 'a request without an actor');
SELECT throws_ok($$SELECT corebank.core_postings('[7]', ARRAY[pg_temp.operator()])$$,
                 'CBV00', 'requests[0]: must be an object {operation, request}', 'an element that is not an object');
SELECT throws_ok($$SELECT corebank.core_postings('[{"operation": "steal", "request": {}}]', ARRAY[pg_temp.operator()])$$,
                 'CBV00', 'requests[0].operation: must be deposit, withdrawal, transfer or fee', 'an unknown operation');
SELECT throws_ok($$SELECT corebank.core_postings('[{"operation": "transfer", "request": "x"}]', ARRAY[pg_temp.operator()])$$,
                 'CBV00', 'requests[0].request: must be a JSON object', 'a request that is not an object');
SELECT throws_ok($$SELECT corebank.core_postings('[{"operation": "transfer"}]', NULL)$$,
                 'CBV00', 'actors: is required', 'no actors');
SELECT is((SELECT count(*) FROM corebank.transactions t WHERE t.type = 'TRANSFER'), 0::bigint,
          'the refused calls posted nothing');

-- A group posts as the single path posts.
CREATE TEMP TABLE g1 AS SELECT pg_temp.group_of(
    pg_temp.t('a', 'b', 1000, '{"narrative": "rent", "channel": "mobile", "description": "March"}'),
    pg_temp.t('b', 'c', 250),
    pg_temp.t('a', 'c', 100, '{"reference": "GRP-REF-1", "currency": "usd"}')) AS r;
SELECT is((SELECT jsonb_agg(e ->> 'status') FROM g1, jsonb_array_elements(r) e), '["POSTED", "POSTED", "POSTED"]',
          'three transfers between three accounts: all posted');
SELECT is(pg_temp.bal(pg_temp.acc('a')), 100000 - 1100::bigint, 'the debited account moved by both debits');
SELECT is(pg_temp.bal(pg_temp.acc('c')), 5000 + 350::bigint, 'the credited account by both credits');
SELECT is((SELECT jsonb_agg(e -> 'response' ORDER BY n) FROM g1, jsonb_array_elements(r) WITH ORDINALITY AS x(e, n)),
          (SELECT jsonb_agg(corebank_internal.transaction_json((e -> 'response' ->> 'id')::uuid) ORDER BY n)
           FROM g1, jsonb_array_elements(r) WITH ORDINALITY AS x(e, n)),
          'each response is its transaction as the reads render it');
SELECT is((SELECT r -> 2 -> 'response' ->> 'reference' FROM g1), 'GRP-REF-1', 'a given reference is kept');
SELECT isnt((SELECT r -> 0 -> 'response' ->> 'reference' FROM g1), (SELECT r -> 1 -> 'response' ->> 'reference' FROM g1),
            'the others are numbered, each its own');
SELECT is((SELECT t.channel || ' ' || t.description FROM corebank.transactions t
           WHERE t.id = (SELECT (r -> 0 -> 'response' ->> 'id')::uuid FROM g1)),
          'MOBILE March', 'the channel and description are recorded');
-- The same first request posted singly gives the same transaction but for its id and number.
CREATE TEMP TABLE single1 AS SELECT pg_temp.move(pg_temp.acc('a'), pg_temp.acc('b'), 1000,
                                                 '{"narrative": "rent", "channel": "mobile", "description": "March"}') AS r;
SELECT is(pg_temp.shape((SELECT r -> 0 -> 'response' FROM g1)), pg_temp.shape((SELECT r FROM single1)),
          'a grouped transfer answers what the single path answers');
SELECT is((SELECT array_agg(e.line_no || e.side || e.amount_minor || e.narrative || e.gl_account_id || e.branch_id
                            ORDER BY e.line_no)
           FROM corebank.journal_entries e WHERE e.transaction_id = (SELECT (r -> 0 -> 'response' ->> 'id')::uuid FROM g1)),
          (SELECT array_agg(e.line_no || e.side || e.amount_minor || e.narrative || e.gl_account_id || e.branch_id
                            ORDER BY e.line_no)
           FROM corebank.journal_entries e WHERE e.transaction_id = (SELECT (r ->> 'id')::uuid FROM single1)),
          'and writes the same entries');

-- Running balances: the third debit of c is not covered after the first two.
CREATE TEMP TABLE g2 AS SELECT pg_temp.group_of(
    pg_temp.t('c', 'a', 3000), pg_temp.t('c', 'b', 2000), pg_temp.t('c', 'a', 1000)) AS r;
SELECT is((SELECT jsonb_agg(e ->> 'status') FROM g2, jsonb_array_elements(r) e), '["POSTED", "POSTED", "ALONE"]',
          'a debit the earlier ones leave uncovered goes alone');
SELECT is(pg_temp.bal(pg_temp.acc('c')), 5350 - 5000::bigint, 'only the posted debits moved the account');
SELECT throws_ok(format($$SELECT corebank.core_transfer(%L, pg_temp.operator())$$, pg_temp.t('c', 'a', 1000) -> 'request'),
                 'CB422', NULL, 'and the single path refuses it');

-- What only the single path decides goes alone, with nothing written.
CREATE TEMP TABLE before AS SELECT count(*) AS n FROM corebank.transactions;
CREATE TEMP TABLE g3 AS SELECT pg_temp.group_of(
    pg_temp.t('a', 'b', 10, '{"valueDate": "2026-03-01"}'),
    pg_temp.t('a', 'b', 10, '{"branchCode": "HQ"}'),
    pg_temp.t('a', 'z', 10),
    pg_temp.t('a', 'fd', 10),
    '{"operation": "deposit", "request": {"accountId": "00000000-0000-4000-8000-000000000000", "amountMinor": 5}}',
    pg_temp.t('a', 'b', 0),
    jsonb_build_object('operation', 'transfer', 'request', jsonb_build_object(
        'fromAccountId', pg_temp.acc('a'), 'toAccountId', '00000000-0000-4000-8000-000000000009', 'amountMinor', 5))) AS r;
SELECT is((SELECT jsonb_agg(e ->> 'status') FROM g3, jsonb_array_elements(r) e),
          '["ALONE", "ALONE", "ALONE", "ALONE", "ALONE", "ALONE", "ALONE"]',
          'a value date, a named branch, two currencies, a fixed deposit, a deposit, a zero amount, an unknown account: alone');
SELECT is((SELECT count(*) FROM corebank.transactions), (SELECT n FROM before), 'and nothing is written for them');
SELECT ok((SELECT bool_and(e ? 'reason' AND NOT e ? 'response') FROM g3, jsonb_array_elements(r) e),
          'an ALONE answer gives a reason and no response');

-- Idempotency keys: one record per key, replayable by the single path.
CREATE TEMP TABLE g4 AS SELECT pg_temp.group_of(
    pg_temp.t('a', 'b', 7, '{"idempotencyKey": "grp-k1"}'),
    pg_temp.t('a', 'b', 7, '{"idempotencyKey": "grp-k1"}'),
    pg_temp.t('b', 'a', 9, '{"idempotencyKey": "grp-k2"}')) AS r;
SELECT is((SELECT jsonb_agg(e ->> 'status') FROM g4, jsonb_array_elements(r) e), '["POSTED", "ALONE", "POSTED"]',
          'a key repeated in the group: the first posts, the repeat goes alone');
SELECT is(corebank.core_transfer((SELECT pg_temp.t('a', 'b', 7, '{"idempotencyKey": "grp-k1"}') -> 'request'), pg_temp.operator()),
          (SELECT r -> 0 -> 'response' FROM g4), 'the repeat, alone, replays the first response');
SELECT is((SELECT count(*) FROM corebank.transactions t
           WHERE t.id = (SELECT (r -> 0 -> 'response' ->> 'id')::uuid FROM g4)), 1::bigint, 'posted once');
SELECT is((SELECT k.request_hash FROM corebank.idempotency_keys k WHERE k.scope = 'core.money' AND k.key = 'grp-k2'),
          sha256(convert_to('core.money' || E'\n' ||
                            jsonb_build_object('operation', 'transfer', 'request',
                                               pg_temp.t('b', 'a', 9, '{"idempotencyKey": "grp-k2"}') -> 'request')::text, 'UTF8')),
          'the key hashes the request as the single path does');
SELECT is((SELECT (k.transaction_id::text, k.response IS NULL) FROM corebank.idempotency_keys k
           WHERE k.scope = 'core.money' AND k.key = 'grp-k2'),
          ((SELECT r -> 2 -> 'response' ->> 'id' FROM g4), true),
          'the key keeps the transaction and no copy of the answer, as the single path');
SELECT throws_ok($$SELECT pg_temp.move(pg_temp.acc('b'), pg_temp.acc('a'), 10, '{"idempotencyKey": "grp-k2"}')$$,
                 'CB409', 'idempotencyKey was already used for a different request',
                 'the key under another request is refused by the single path');
CREATE TEMP TABLE g5 AS SELECT pg_temp.group_of(pg_temp.t('b', 'a', 9, '{"idempotencyKey": "grp-k2"}'),
                                                pg_temp.t('c', 'a', 999999, '{"idempotencyKey": "grp-k3"}'),
                                                pg_temp.t('a', 'b', 1)) AS r;
SELECT is((SELECT jsonb_agg(e ->> 'status') FROM g5, jsonb_array_elements(r) e), '["ALONE", "ALONE", "POSTED"]',
          'a claimed key and a refused keyed request go alone, the others post');
SELECT is(corebank.core_transfer(pg_temp.t('b', 'a', 9, '{"idempotencyKey": "grp-k2"}') -> 'request', pg_temp.operator()),
          (SELECT r -> 2 -> 'response' FROM g4),
          'the claimed key replays through the single path');
SELECT is_empty($$SELECT FROM corebank.idempotency_keys k WHERE k.key = 'grp-k3'$$,
                'the refused request''s key claim is taken back');
-- 1.8: a key is claimed with its transaction's id, written once; the id is
-- checked against the transactions at commit, when the transaction exists
-- (a deferred constraint trigger since the foreign key went, see
-- transaction_references.sql).
SELECT is((SELECT (c.contype, c.condeferrable, c.condeferred) FROM pg_constraint c
           WHERE c.conrelid = 'corebank.idempotency_keys'::regclass
             AND c.conname = 'idempotency_keys_check_transaction'), ('t'::"char", true, true),
          'the key''s reference to its transaction is checked at commit');
SELECT is((SELECT count(*) FROM corebank.idempotency_keys k
           WHERE k.scope = 'core.money' AND k.key LIKE 'grp-%' AND NOT EXISTS (
               SELECT FROM corebank.transactions t WHERE t.id = k.transaction_id AND t.status = 'POSTED')), 0::bigint,
          'every key a group holds names its posted transaction');
SELECT throws_ok($$INSERT INTO corebank.idempotency_keys (scope, key, request_hash, transaction_id)
                   VALUES ('core.money', 'grp-dangling', sha256('x'), gen_random_uuid());
                   SET CONSTRAINTS ALL IMMEDIATE$$,
                 '23503', NULL, 'a key naming no transaction is refused at commit, whoever writes it');

-- A DORMANT account is reactivated by its owner's grouped debit, as by a single one.
SELECT corebank_internal.account_status_set(pg_temp.acc('b'), 'DORMANT', 'test', pg_temp.maker());
CREATE TEMP TABLE g6 AS SELECT pg_temp.group_of(pg_temp.t('b', 'a', 5), pg_temp.t('a', 'b', 5)) AS r;
SELECT is((SELECT jsonb_agg(e ->> 'status') FROM g6, jsonb_array_elements(r) e), '["POSTED", "POSTED"]',
          'transfers out of and into a DORMANT account of the same customer post');
SELECT is(pg_temp.status(pg_temp.acc('b')), 'ACTIVE', 'and reactivate it');
SELECT is((SELECT format('%s>%s %s %s', h.from_status, h.to_status, h.reason, (h.actor_id = pg_temp.operator())::text)
           FROM corebank.account_status_history h WHERE h.account_id = pg_temp.acc('b') ORDER BY h.id DESC LIMIT 1),
          'DORMANT>ACTIVE reactivated by a customer-initiated posting true', 'once, with its history row, by the actor');

-- The same call with its answers as rows (core_postings_rows, what the tier
-- reads): in request order, a POSTED row's response is jsonb's own text of
-- the posted transaction, an ALONE row has a reason and no response.
SELECT is((SELECT l.lanname || ' ' || p.prosecdef FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
           WHERE p.oid = 'corebank.core_postings_rows(jsonb, uuid[])'::regprocedure),
          'c true', 'core_postings_rows is a C function, SECURITY DEFINER');
SELECT ok(has_function_privilege('corebank_app', 'corebank.core_postings_rows(jsonb, uuid[])', 'EXECUTE')
          AND NOT has_function_privilege('public', 'corebank.core_postings_rows(jsonb, uuid[])', 'EXECUTE'),
          'the tier''s role may call it, PUBLIC may not');
CREATE TEMP TABLE rows_answer AS
    SELECT row_number() OVER () AS n, r.*
    FROM corebank.core_postings_rows(jsonb_build_array(pg_temp.t('a', 'b', 7), pg_temp.t('b', 'a', 3),
                                                       pg_temp.t('c', 'a', 1000000000)),
                                     array_fill(pg_temp.operator(), ARRAY[3])) AS r;
SELECT is((SELECT array_agg(status ORDER BY n) FROM rows_answer), ARRAY['POSTED', 'POSTED', 'ALONE'],
          'one row per request, in request order');
SELECT is((SELECT count(*)::int FROM rows_answer WHERE status = 'POSTED' AND response = response::jsonb::text
           AND reason IS NULL), 2, 'a POSTED row''s response is jsonb''s own text, with no reason');
SELECT is((SELECT count(*)::int FROM rows_answer r JOIN corebank.transactions t ON t.id = (r.response::jsonb ->> 'id')::uuid
           WHERE t.status = 'POSTED' AND t.type = 'TRANSFER'), 2, 'and names the transaction it posted');
SELECT is((SELECT response::jsonb ->> 'amountMinor' FROM rows_answer WHERE n = 1), '7',
          'the first request''s own transfer');
SELECT is((SELECT response IS NULL AND reason LIKE 'posted alone: %' FROM rows_answer WHERE n = 3), true,
          'an ALONE row has a reason and no response');
SELECT throws_ok($$SELECT * FROM corebank.core_postings_rows('{}', ARRAY[pg_temp.operator()])$$,
                 'CBV00', 'requests: must be a JSON array of 1 to 256 postings', 'a malformed call is refused whole');

-- The books.
SELECT ok(pg_temp.ledger_healthy(), 'every transaction balances and every balance matches its entries');
SELECT is((SELECT count(*) FROM corebank.ledger_verify_chain()), 0::bigint, 'the hash chain verifies');
SELECT is((SELECT sum(a.balance_minor) FROM corebank.ledger_accounts a WHERE a.id IN (SELECT id FROM acc WHERE name IN ('a', 'b', 'c'))),
          205000::numeric, 'transfers moved money between the three accounts and created none');
SELECT is((SELECT count(*) FROM corebank.journal_entries e JOIN corebank.transactions t ON t.id = e.transaction_id
           WHERE t.type = 'TRANSFER'),
          2 * (SELECT count(*) FROM corebank.transactions t WHERE t.type = 'TRANSFER'), 'two entries per transfer');

SELECT * FROM finish();
ROLLBACK;
