-- transfer_batch.sql: core_transfer_batch and the TRANSACTION sequence (1.5,
-- docs/design/batch-transfers.md).
--
-- Goal: a batch decides its transfers in request order against running
-- balances, each under the rules of a single customer-initiated transfer
-- (state table, minimum balance, overdraft limit), refuses per item what a
-- batch does not take (cross-currency, fixed deposits), posts a linked chain
-- all or nothing, refuses a malformed request as a whole (CBV00
-- "transfers[i].field: reason") and a closed period (CB422), replays under
-- its idempotency key, and writes ordinary TRANSFER transactions that keep
-- every ledger invariant (balanced, hash chain, balances equal to entries,
-- immutable). TRANSACTION numbers come from a sequence: increasing, with a
-- gap after a rollback, moved forward only; LOAN and ACCOUNT stay gap-free.
-- Method: batches through the API, then read the journal, the balances, the
-- status history and the chain.
BEGIN;
SELECT plan(140);
\ir helpers/deposits.sql

SELECT pg_temp.today('2026-03-02');

-- Accounts by name: customer A owns a, b, s, z, fd, f, cl, p, dm, dt, dd and
-- gw (at branch GWE); customer B owns c and dx; su is internal; l is a bare ledger account (no
-- deposit row); nobody does not exist.
CREATE TEMP TABLE cust AS SELECT pg_temp.customer('Batch', 'N-70') AS a, pg_temp.customer('Other', 'N-71') AS b;
CREATE TEMP TABLE accts (name text PRIMARY KEY, id uuid NOT NULL);
INSERT INTO accts VALUES
    ('a', pg_temp.open((SELECT a FROM cust), 'CUR-STD', 100000)),
    ('b', pg_temp.open((SELECT a FROM cust), 'CUR-STD')),
    ('c', pg_temp.open((SELECT b FROM cust), 'CUR-STD', 5000)),
    ('s', pg_temp.open((SELECT a FROM cust), 'SAV-STD', 20000)),
    ('z', pg_temp.open((SELECT a FROM cust), 'CUR-ZWG')),
    ('fd', pg_temp.open((SELECT a FROM cust), 'FD-3M', 100000)),
    ('f', pg_temp.open((SELECT a FROM cust), 'CUR-STD', 5000)),
    ('cl', pg_temp.open((SELECT a FROM cust), 'CUR-STD')),
    ('p', pg_temp.open((SELECT a FROM cust), 'TRUST-USD')),
    ('dm', pg_temp.open((SELECT a FROM cust), 'CUR-STD', 5000)),
    ('dt', pg_temp.open((SELECT a FROM cust), 'CUR-STD')),
    ('dx', pg_temp.open((SELECT b FROM cust), 'CUR-STD')),
    ('dd', pg_temp.open((SELECT a FROM cust), 'CUR-STD', 5000)),
    ('gw', pg_temp.open((SELECT a FROM cust), 'CUR-STD', 1000, '{"branchCode": "GWE"}')),
    ('su', (corebank.core_accounts_open('{"productCode": "SUSP-USD"}', pg_temp.operator()) ->> 'id')::uuid),
    ('l', pg_temp.open_account('2010')),
    ('nobody', '00000000-0000-4000-8000-00000000dead');

CREATE FUNCTION pg_temp.acc(n text) RETURNS uuid LANGUAGE sql STABLE
    AS $f$ SELECT x.id FROM accts x WHERE x.name = n $f$;
CREATE FUNCTION pg_temp.num(n text) RETURNS text LANGUAGE sql STABLE
    AS $f$ SELECT a.account_number FROM corebank.ledger_accounts a WHERE a.id = pg_temp.acc(n) $f$;
CREATE FUNCTION pg_temp.bals(VARIADIC names text[]) RETURNS bigint[] LANGUAGE sql STABLE
    AS $f$ SELECT array_agg(pg_temp.bal(pg_temp.acc(x.n)) ORDER BY x.o) FROM unnest(names) WITH ORDINALITY AS x(n, o) $f$;
-- One item of a batch between named accounts.
CREATE FUNCTION pg_temp.t(src text, dst text, amount bigint, extra jsonb DEFAULT '{}') RETURNS jsonb LANGUAGE sql STABLE
    AS $f$
    SELECT jsonb_build_object('fromAccountId', pg_temp.acc(src), 'toAccountId', pg_temp.acc(dst), 'amountMinor', amount)
           || extra
$f$;
CREATE FUNCTION pg_temp.batch(items jsonb, extra jsonb DEFAULT '{}',
                              actor uuid DEFAULT '00000000-0000-4000-8000-000000000003') RETURNS jsonb
    LANGUAGE sql
    AS $f$ SELECT corebank.core_transfer_batch(jsonb_build_object('transfers', items) || extra, actor) $f$;
CREATE FUNCTION pg_temp.raw(request jsonb) RETURNS jsonb LANGUAGE sql
    AS $f$ SELECT corebank.core_transfer_batch(request, pg_temp.operator()) $f$;
-- Per result: its error code when FAILED, else its status.
CREATE FUNCTION pg_temp.outcomes(r jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE
    AS $f$
    SELECT array_agg(coalesce(x.e ->> 'error', x.e ->> 'status') ORDER BY x.o)
    FROM jsonb_array_elements(r -> 'results') WITH ORDINALITY AS x(e, o)
$f$;
CREATE FUNCTION pg_temp.msg(r jsonb, i int) RETURNS text LANGUAGE sql IMMUTABLE
    AS $f$ SELECT r -> 'results' -> i ->> 'message' $f$;
CREATE FUNCTION pg_temp.tx(r jsonb, i int) RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $f$ SELECT (r -> 'results' -> i ->> 'transactionId')::uuid $f$;
-- A transaction's entries as 'side amount account-name', by line.
CREATE FUNCTION pg_temp.lines(tx uuid) RETURNS text[] LANGUAGE sql STABLE
    AS $f$
    SELECT array_agg(e.side || ' ' || e.amount_minor || ' ' || coalesce(x.name, '?') ORDER BY e.line_no)
    FROM corebank.journal_entries e LEFT JOIN accts x ON x.id = e.ledger_account_id
    WHERE e.transaction_id = tx
$f$;
CREATE FUNCTION pg_temp.seq() RETURNS text LANGUAGE sql STABLE
    AS $f$ SELECT last_value || '/' || is_called FROM corebank.transaction_numbers $f$;
CREATE FUNCTION pg_temp.digits(reference text) RETURNS bigint LANGUAGE sql IMMUTABLE
    AS $f$ SELECT substring(reference FROM '[0-9]+$')::bigint $f$;

-- States: f FROZEN, cl CLOSED (at zero), p PENDING_ACTIVATION (TRUST), dm,
-- dt, dx and dd DORMANT.
SELECT corebank.core_accounts_freeze(pg_temp.acc('f'), '{"reason": "court order"}', pg_temp.maker());
SELECT corebank.core_accounts_close(pg_temp.acc('cl'), '{"reason": "test"}', pg_temp.maker());
SELECT corebank_internal.account_status_set(pg_temp.acc(n), 'DORMANT', 'test', pg_temp.maker())
FROM unnest(ARRAY['dm', 'dt', 'dx', 'dd']) AS n;
SELECT is(ARRAY(SELECT pg_temp.status(pg_temp.acc(n)) FROM unnest(ARRAY['f', 'cl', 'p', 'dm', 'dt', 'dx', 'dd']) AS n),
          ARRAY['FROZEN', 'CLOSED', 'PENDING_ACTIVATION', 'DORMANT', 'DORMANT', 'DORMANT', 'DORMANT'], 'the accounts are set up');
SELECT pg_temp.today('2026-03-10');

-- 1. A mixed batch: results in order, two posted, three failed.
CREATE TEMP TABLE b1 AS SELECT pg_temp.batch(jsonb_build_array(
    pg_temp.t('a', 'b', 2500, '{"reference": "INV-1", "narrative": "rent", "currency": "USD"}'),
    pg_temp.t('a', 'c', 1000),
    pg_temp.t('b', 'a', 999999),
    pg_temp.t('nobody', 'b', 1),
    pg_temp.t('a', 'l', 1))) AS r;
SELECT is((SELECT array_agg(k ORDER BY k) FROM b1, jsonb_object_keys(r) AS k), ARRAY['failedCount', 'postedCount', 'results'],
          'a TransferBatchResponse: postedCount, failedCount, results');
SELECT is((SELECT (r ->> 'postedCount') || '/' || (r ->> 'failedCount') FROM b1), '2/3', 'two posted, three failed');
SELECT is((SELECT array_agg((e ->> 'index')::int ORDER BY o) FROM b1, jsonb_array_elements(r -> 'results') WITH ORDINALITY AS x(e, o)),
          ARRAY[0, 1, 2, 3, 4], 'one result per transfer, in request order');
SELECT is((SELECT array_agg(e ->> 'status' ORDER BY o) FROM b1, jsonb_array_elements(r -> 'results') WITH ORDINALITY AS x(e, o)),
          ARRAY['POSTED', 'POSTED', 'FAILED', 'FAILED', 'FAILED'], 'statuses POSTED and FAILED');
SELECT is(pg_temp.outcomes(r), ARRAY['POSTED', 'POSTED', 'UNPROCESSABLE', 'NOT_FOUND', 'NOT_FOUND'], 'the error of each failed transfer')
FROM b1;
SELECT is(pg_temp.msg(r, 2), 'insufficient funds in account ' || pg_temp.num('b'),
          'the third sees the first''s credit and still lacks funds') FROM b1;
SELECT is(pg_temp.msg(r, 3), 'fromAccountId: account not found', 'an unknown source') FROM b1;
SELECT is(pg_temp.msg(r, 4), 'toAccountId: account not found', 'a bare ledger account is not a deposit account') FROM b1;
SELECT is((SELECT count(*) FROM b1, jsonb_array_elements(r -> 'results') e
           WHERE (e ->> 'status' = 'FAILED') <> (e ? 'error' AND e ? 'message' AND NOT e ? 'transactionId')
              OR (e ->> 'status' = 'POSTED') <> (e ? 'transactionId' AND e ? 'reference' AND NOT e ? 'error')),
          0::bigint, 'a posted result names its transaction, a failed one its error and message');
SELECT is(r -> 'results' -> 0 ->> 'reference', 'INV-1', 'a given reference is kept') FROM b1;
SELECT ok((r -> 'results' -> 1 ->> 'reference') ~ '^TX[0-9]{10}$', 'else the reference is the next TRANSACTION number') FROM b1;
SELECT is((SELECT format('%s %s %s %s %s', t.type, t.status, t.reference, t.channel, t.value_date)
           FROM corebank.transactions t WHERE t.id = pg_temp.tx(r, 0)),
          'TRANSFER POSTED INV-1 BRANCH 2026-03-10', 'a posted TRANSFER on the business date, channel BRANCH') FROM b1;
SELECT is((SELECT t.reference FROM corebank.transactions t WHERE t.id = pg_temp.tx(r, 1)), r -> 'results' -> 1 ->> 'reference',
          'the result''s reference is the transaction''s') FROM b1;
SELECT ok((SELECT t.operator_id = pg_temp.operator() AND t.maker_id = pg_temp.operator()
           FROM corebank.transactions t WHERE t.id = pg_temp.tx(r, 0)), 'maker and operator: the actor') FROM b1;
SELECT is(pg_temp.lines(pg_temp.tx(r, 0)), ARRAY['D 2500 a', 'C 2500 b'], 'two entries: debit the source, credit the target') FROM b1;
SELECT is(pg_temp.lines(pg_temp.tx(r, 1)), ARRAY['D 1000 a', 'C 1000 c'], 'the second transfer''s entries') FROM b1;
SELECT is((SELECT array_agg(DISTINCT e.narrative) FROM corebank.journal_entries e WHERE e.transaction_id = pg_temp.tx(r, 0)),
          ARRAY['rent'], 'a given narrative on both entries') FROM b1;
SELECT is((SELECT array_agg(DISTINCT e.narrative) FROM corebank.journal_entries e WHERE e.transaction_id = pg_temp.tx(r, 1)),
          ARRAY[format('Transfer %s to %s', pg_temp.num('a'), pg_temp.num('c'))], 'the default narrative') FROM b1;
SELECT is(pg_temp.bals('a', 'b', 'c'), ARRAY[96500, 2500, 6000]::bigint[], 'the balances moved by the posted transfers only');
SELECT is((SELECT t.branch_id FROM corebank.transactions t WHERE t.id = pg_temp.tx(r, 0)),
          (SELECT a.branch_id FROM corebank.ledger_accounts a WHERE a.id = pg_temp.acc('a')),
          'an actor without a branch: the source account''s branch') FROM b1;
SELECT is((SELECT count(*) FROM corebank.journal_entries e WHERE e.transaction_id IN (pg_temp.tx(r, 0), pg_temp.tx(r, 1))
           AND (e.branch_id, e.value_date, e.channel, e.operator_id)
               IS DISTINCT FROM (t.branch_id, t.value_date, t.channel, t.operator_id)),
          0::bigint, 'every entry carries its transaction''s branch, value date, channel and operator')
FROM b1, corebank.transactions t WHERE t.id = pg_temp.tx(r, 0);
SELECT is((SELECT g ->> 'type' || ' ' || jsonb_array_length(g -> 'entries') FROM corebank.core_transaction_get(pg_temp.tx(r, 1)) g),
          'TRANSFER 2', 'core_transaction_get shows it like any transaction') FROM b1;
SELECT ok((SELECT count(DISTINCT t.chain_stripe) = 1 AND max(t.chain_seq) - min(t.chain_seq) = 1 AND bool_and(t.hash IS NOT NULL)
           FROM corebank.transactions t WHERE t.id IN (pg_temp.tx(r, 0), pg_temp.tx(r, 1))),
          'both on one hash chain stripe, consecutive') FROM b1;
SELECT is(ARRAY(SELECT d.last_customer_activity_on IS NOT DISTINCT FROM '2026-03-10' FROM unnest(ARRAY['a', 'b', 'c']) WITH ORDINALITY AS n(x, o)
                JOIN corebank.deposit_accounts d ON d.id = pg_temp.acc(n.x) ORDER BY n.o),
          ARRAY[true, true, false],
          'customer activity: the source and a target of the same customer, not another customer''s target');

-- 2. Running balances: each transfer sees the ones before it.
CREATE TEMP TABLE b2 AS SELECT pg_temp.batch(jsonb_build_array(
    pg_temp.t('b', 's', 2000),
    pg_temp.t('b', 's', 600),
    pg_temp.t('s', 'b', 21000),
    pg_temp.t('s', 'b', 1)), '{"channel": "mobile"}') AS r;
SELECT is(pg_temp.outcomes(r), ARRAY['POSTED', 'UNPROCESSABLE', 'POSTED', 'UNPROCESSABLE'], 'running balances decide') FROM b2;
SELECT is(pg_temp.msg(r, 1), 'insufficient funds in account ' || pg_temp.num('b'), 'the second sees the first''s debit') FROM b2;
SELECT is(pg_temp.msg(r, 3), format('the posting would take account %s below its minimum balance of 10.00', pg_temp.num('s')),
          'the savings minimum balance holds against the running balance') FROM b2;
SELECT is(pg_temp.bals('b', 's'), ARRAY[21500, 1000]::bigint[], 'the third used the first''s credit');
SELECT is((SELECT count(*) FROM corebank.transactions t JOIN corebank.journal_entries e ON e.transaction_id = t.id
           WHERE t.id IN (pg_temp.tx(r, 0), pg_temp.tx(r, 2)) AND t.channel = 'MOBILE' AND e.channel = 'MOBILE'),
          4::bigint, 'the channel is upper-cased onto transactions and entries') FROM b2;

-- 3. Linked chains: all or nothing; an open chain fails as a whole.
CREATE TEMP TABLE n3 AS SELECT count(*) AS n FROM corebank.transactions;
CREATE TEMP TABLE b3 AS SELECT pg_temp.batch(jsonb_build_array(
    pg_temp.t('a', 'b', 1000, '{"linked": true}'),
    pg_temp.t('c', 'b', 999999, '{"linked": true}'),
    pg_temp.t('b', 's', 22000),
    pg_temp.t('a', 'c', 96500),
    pg_temp.t('c', 'b', 100000, '{"linked": true}'),
    pg_temp.t('b', 'a', 121000, '{"linked": false}'),
    pg_temp.t('a', 'b', 5, '{"linked": true}'),
    pg_temp.t('b', 'c', 7, '{"linked": true}'))) AS r;
SELECT is(pg_temp.outcomes(r),
          ARRAY['LINKED_EVENT_FAILED', 'UNPROCESSABLE', 'LINKED_EVENT_FAILED', 'POSTED', 'POSTED', 'POSTED',
                'LINKED_EVENT_CHAIN_OPEN', 'LINKED_EVENT_CHAIN_OPEN'],
          'a failed chain, a lone transfer, a chain that posts, an open chain') FROM b3;
SELECT is((r ->> 'postedCount') || '/' || (r ->> 'failedCount'), '3/5', 'counted per transfer') FROM b3;
SELECT is(pg_temp.msg(r, 1), 'insufficient funds in account ' || pg_temp.num('c'), 'the failing transfer reports its own error')
FROM b3;
SELECT is(ARRAY[pg_temp.msg(r, 0), pg_temp.msg(r, 2)], ARRAY['transfers[1] of the same linked chain failed',
                                                            'transfers[1] of the same linked chain failed'],
          'the others of its chain name the failing one') FROM b3;
SELECT is(ARRAY[pg_temp.msg(r, 6), pg_temp.msg(r, 7)],
          ARRAY['the linked chain from transfers[6] is not closed: the last transfer of a batch must not be linked',
                'the linked chain from transfers[6] is not closed: the last transfer of a batch must not be linked'],
          'the open chain''s message') FROM b3;
SELECT is(pg_temp.bals('a', 'b', 'c', 's'), ARRAY[121000, 500, 2500, 1000]::bigint[],
          'the failed and the open chain moved nothing; the lone transfer saw a undebited; the chain''s second saw its first');
SELECT is((SELECT count(*) - (SELECT n FROM n3) FROM corebank.transactions), 3::bigint, 'three transactions written');

-- 4. The state table, internal accounts, and what a batch does not take.
CREATE TEMP TABLE gl1900 AS SELECT g.first_posted_at IS NULL AS unposted FROM corebank.gl_accounts g WHERE g.id = pg_temp.gl('1900');
CREATE TEMP TABLE b4 AS SELECT pg_temp.batch(jsonb_build_array(
    pg_temp.t('f', 'b', 100),
    pg_temp.t('b', 'f', 100),
    pg_temp.t('b', 'cl', 1),
    pg_temp.t('cl', 'b', 1),
    pg_temp.t('b', 'p', 1),
    pg_temp.t('dm', 'b', 100),
    pg_temp.t('b', 'dt', 50),
    pg_temp.t('a', 'dx', 50),
    pg_temp.t('su', 'b', 700),
    pg_temp.t('a', 'z', 100),
    pg_temp.t('a', 'fd', 100),
    pg_temp.t('fd', 'a', 100),
    pg_temp.t('a', 'b', 100, '{"currency": "ZWG"}'))) AS r;
SELECT is(pg_temp.outcomes(r),
          ARRAY['UNPROCESSABLE', 'POSTED', 'UNPROCESSABLE', 'UNPROCESSABLE', 'UNPROCESSABLE', 'POSTED', 'POSTED', 'POSTED',
                'POSTED', 'UNPROCESSABLE', 'UNPROCESSABLE', 'UNPROCESSABLE', 'UNPROCESSABLE'],
          'the state table decides each transfer') FROM b4;
SELECT is(pg_temp.msg(r, 0), format('account %s is FROZEN: debits are refused', pg_temp.num('f')), 'a FROZEN source is refused')
FROM b4;
SELECT is(ARRAY[pg_temp.msg(r, 2), pg_temp.msg(r, 3)],
          ARRAY[format('account %s is CLOSED', pg_temp.num('cl')), format('account %s is CLOSED', pg_temp.num('cl'))],
          'a CLOSED account takes nothing and gives nothing') FROM b4;
SELECT is(pg_temp.msg(r, 4), format('account %s is not activated yet (PENDING_ACTIVATION)', pg_temp.num('p')),
          'a PENDING_ACTIVATION target is refused') FROM b4;
SELECT is(pg_temp.msg(r, 9),
          format('cross-currency transfers are not taken in a batch: use POST /v1/transfers (account %s is in USD, %s in ZWG)',
                 pg_temp.num('a'), pg_temp.num('z')),
          'a cross-currency pair is refused, pointing to POST /v1/transfers') FROM b4;
SELECT is(ARRAY[pg_temp.msg(r, 10), pg_temp.msg(r, 11)],
          ARRAY[format('fixed deposit accounts are not taken in a batch: use POST /v1/transfers (account %s)', pg_temp.num('fd')),
                format('fixed deposit accounts are not taken in a batch: use POST /v1/transfers (account %s)', pg_temp.num('fd'))],
          'a fixed deposit on either side is refused') FROM b4;
SELECT is(pg_temp.msg(r, 12), format('currency: account %s is in USD', pg_temp.num('a')),
          'a currency member other than the source''s') FROM b4;
SELECT is(pg_temp.bals('f', 'dm', 'dt', 'dx', 'su', 'b', 'a', 'fd', 'z', 'cl'),
          ARRAY[5100, 4900, 50, 50, -700, 1150, 120950, 100000, 0, 0]::bigint[], 'balances moved by the posted ones only');
SELECT is(ARRAY(SELECT pg_temp.status(pg_temp.acc(n)) FROM unnest(ARRAY['f', 'dm', 'dt', 'dx']) AS n),
          ARRAY['FROZEN', 'ACTIVE', 'ACTIVE', 'DORMANT'],
          'FROZEN stays, a DORMANT source and same-customer target reactivate, another customer''s target stays DORMANT');
SELECT is((SELECT format('%s>%s %s %s', h.from_status, h.to_status, h.reason, (h.actor_id = pg_temp.operator())::text)
           FROM corebank.account_status_history h WHERE h.account_id = pg_temp.acc('dm') ORDER BY h.id DESC LIMIT 1),
          'DORMANT>ACTIVE reactivated by a customer-initiated posting true', 'the reactivation is in the status history');
SELECT is((SELECT h.to_status FROM corebank.account_status_history h WHERE h.account_id = pg_temp.acc('dx') ORDER BY h.id DESC LIMIT 1),
          'DORMANT', 'no reactivation recorded for another customer''s account');
SELECT is((SELECT dormant_since FROM corebank.deposit_accounts WHERE id = pg_temp.acc('dm')), NULL::date,
          'the reactivated account is no longer dormant since');
SELECT ok((SELECT unposted FROM gl1900) AND (SELECT g.first_posted_at IS NOT NULL FROM corebank.gl_accounts g WHERE g.id = pg_temp.gl('1900')),
          'the batch records the first posting to GL 1900 (the suspense account''s)');
SELECT throws_ok($$UPDATE corebank.gl_accounts SET code = '1901' WHERE id = pg_temp.gl('1900')$$, 'CB422',
                 'GL account code and type are frozen once posted to', 'so its code is frozen');

-- 4b. The refusals are those of a single transfer; a refused transfer
-- leaves no trace, not even a reactivation.
CREATE FUNCTION pg_temp.single_error(src text, dst text, amount bigint) RETURNS text
    LANGUAGE plpgsql
    AS $f$
BEGIN
    PERFORM pg_temp.move(pg_temp.acc(src), pg_temp.acc(dst), amount);
    RETURN 'posted';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ' ' || SQLERRM;
END
$f$;
SELECT is(ARRAY[pg_temp.single_error('f', 'b', 100), pg_temp.single_error('b', 'cl', 1), pg_temp.single_error('cl', 'b', 1),
                pg_temp.single_error('b', 'p', 1), pg_temp.single_error('b', 'a', 999999999)],
          ARRAY['CB422 ' || pg_temp.msg(r, 0), 'CB422 ' || pg_temp.msg(r, 2), 'CB422 ' || pg_temp.msg(r, 3),
                'CB422 ' || pg_temp.msg(r, 4), 'CB422 insufficient funds in account ' || pg_temp.num('b')],
          'POST /v1/transfers refuses the same transfers with the same messages') FROM b4;
SELECT is(pg_temp.outcomes(pg_temp.batch(jsonb_build_array(pg_temp.t('dd', 'b', 999999)))), ARRAY['UNPROCESSABLE'],
          'a DORMANT source without the funds is refused');
SELECT is(pg_temp.outcomes(pg_temp.batch(jsonb_build_array(pg_temp.t('dd', 'b', 10, '{"linked": true}'), pg_temp.t('b', 'nobody', 1)))),
          ARRAY['LINKED_EVENT_FAILED', 'NOT_FOUND'], 'a DORMANT source in a chain that fails');
SELECT is((SELECT format('%s %s %s %s', a.status, a.balance_minor, h.to_status, (d.last_customer_activity_on IS NOT DISTINCT FROM '2026-03-10')::text)
           FROM corebank.ledger_accounts a JOIN corebank.deposit_accounts d ON d.id = a.id,
                LATERAL (SELECT x.to_status FROM corebank.account_status_history x WHERE x.account_id = a.id ORDER BY x.id DESC LIMIT 1) h
           WHERE a.id = pg_temp.acc('dd')),
          'DORMANT 5000 DORMANT false', 'neither reactivates it nor counts as activity');
UPDATE corebank.branches SET active = false WHERE code = 'GWE';
SELECT is(pg_temp.msg(pg_temp.batch(jsonb_build_array(pg_temp.t('gw', 'b', 10))), 0), 'branch GWE is inactive',
          'an inactive branch (the source''s) is refused');
SELECT is(pg_temp.single_error('gw', 'b', 10), 'CB422 branch GWE is inactive', 'as by a single transfer');
UPDATE corebank.branches SET active = true WHERE code = 'GWE';
CREATE TEMP TABLE bgw AS SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('gw', 'b', 10))) AS r;
SELECT is((SELECT b.code FROM corebank.transactions t JOIN corebank.branches b ON b.id = t.branch_id WHERE t.id = pg_temp.tx(r, 0)),
          'GWE', 'an actor without a branch posts at the source account''s branch') FROM bgw;
UPDATE corebank.gl_accounts SET active = false WHERE code = '2010' AND currency = 'USD';
SELECT is(pg_temp.msg(pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 10))), 0), 'GL account 2010 (USD) is inactive',
          'an inactive GL account is refused');
SELECT is(pg_temp.single_error('a', 'b', 10), 'CB422 GL account 2010 (USD) is inactive', 'as by a single transfer');
UPDATE corebank.gl_accounts SET active = true WHERE code = '2010' AND currency = 'USD';

-- 5. An actor with a branch posts at that branch.
CREATE TEMP TABLE teller AS
    SELECT corebank.auth_staff_create('batch.teller@example.com', NULL, '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
                                      'Batch', 'Teller', '{teller}', 'BYO') AS id;
CREATE TEMP TABLE b5 AS SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 10)), '{}', (SELECT id FROM teller)) AS r;
SELECT is((SELECT b.code || ' ' || (t.operator_id = (SELECT id FROM teller)) || ' ' || (t.maker_id = (SELECT id FROM teller))
           FROM corebank.transactions t JOIN corebank.branches b ON b.id = t.branch_id WHERE t.id = pg_temp.tx(r, 0)),
          'BYO true true', 'the acting staff member''s branch, maker and operator') FROM b5;

-- 6. The limits: 8,000 transfers; 10^15; a 64-character reference.
CREATE TEMP TABLE b6 AS
    SELECT pg_temp.batch((SELECT jsonb_agg(pg_temp.t('a', 'b', 1)) FROM generate_series(1, 8000))) AS r;
SELECT is((r ->> 'postedCount') || '/' || (r ->> 'failedCount'), '8000/0', '8,000 transfers in one batch') FROM b6;
SELECT is(pg_temp.bals('a', 'b'), ARRAY[112940, 9170]::bigint[], 'each moved 0.01');
CREATE TEMP TABLE b6t AS
    SELECT (x.e ->> 'index')::int AS i, t.reference, t.chain_stripe, t.chain_seq
    FROM b6, jsonb_array_elements(r -> 'results') AS x(e) JOIN corebank.transactions t ON t.id = (x.e ->> 'transactionId')::uuid;
SELECT is((SELECT count(DISTINCT reference) FROM b6t), 8000::bigint, '8,000 distinct references');
SELECT is((SELECT count(*) FROM (SELECT pg_temp.digits(reference) - lag(pg_temp.digits(reference)) OVER (ORDER BY i) AS step
                                 FROM b6t) x WHERE step <= 0),
          0::bigint, 'the numbers increase in request order');
SELECT is((SELECT count(DISTINCT chain_stripe)::text || ' ' || (max(chain_seq) - min(chain_seq))::text FROM b6t), '1 7999',
          'one chain stripe, 8,000 consecutive links');
SELECT is((SELECT count(*) FROM (SELECT chain_seq - lag(chain_seq) OVER (ORDER BY i) AS step FROM b6t) x WHERE step <> 1),
          0::bigint, 'linked in request order');
SELECT is(pg_temp.outcomes(pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1000000000000000)))), ARRAY['UNPROCESSABLE'],
          'amountMinor 10^15 is valid (and refused for funds)');
CREATE TEMP TABLE b6r AS SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, jsonb_build_object('reference', repeat('R', 64))))) AS r;
SELECT is(r -> 'results' -> 0 ->> 'reference', repeat('R', 64), 'a 64-character reference') FROM b6r;

-- 7. Validation: CBV00 for the whole request, the first bad field named.
SELECT throws_ok($$SELECT pg_temp.raw('[]')$$, 'CBV00', 'request: must be a JSON object', 'the request is not an object');
SELECT throws_ok($$SELECT pg_temp.raw('{}')$$, 'CBV00', 'transfers: is required', 'transfers missing');
SELECT throws_ok($$SELECT pg_temp.raw('{"transfers": {}}')$$, 'CBV00', 'transfers: must be an array', 'transfers not an array');
SELECT throws_ok($$SELECT pg_temp.raw('{"transfers": []}')$$, 'CBV00', 'transfers: must hold at least one transfer', 'transfers empty');
SELECT throws_ok($$SELECT pg_temp.batch((SELECT jsonb_agg(pg_temp.t('a', 'b', 1)) FROM generate_series(1, 8001)))$$,
                 'CBV00', 'transfers: must hold at most 8000 transfers', '8,001 transfers');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1), 1))$$,
                 'CBV00', 'transfers[1]: must be a JSON object', 'an item is not an object');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1), pg_temp.t('a', 'b', 1, '{"fromAccountId": "not-a-uuid"}')))$$,
                 'CBV00', 'transfers[1].fromAccountId: must be a UUID', 'a bad uuid');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1) - 'toAccountId'))$$,
                 'CBV00', 'transfers[0].toAccountId: is required', 'no target');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'a', 1)))$$,
                 'CBV00', 'transfers[0].toAccountId: must differ from fromAccountId', 'from equals to');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 0)))$$,
                 'CBV00', 'transfers[0].amountMinor: must be greater than zero', 'amountMinor 0');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', -5)))$$,
                 'CBV00', 'transfers[0].amountMinor: must be greater than zero', 'a negative amountMinor');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, '{"amountMinor": 1.5}')))$$,
                 'CBV00', 'transfers[0].amountMinor: must be an integer number of minor units', 'a decimal amountMinor');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, '{"amountMinor": 100.0}')))$$,
                 'CBV00', 'transfers[0].amountMinor: must be an integer number of minor units', 'amountMinor 100.0');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, '{"amountMinor": "100"}')))$$,
                 'CBV00', 'transfers[0].amountMinor: must be an integer number of minor units', 'a string amountMinor');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1000000000000001)))$$,
                 'CBV00', 'transfers[0].amountMinor: must be at most 1000000000000000', 'amountMinor 10^15 + 1');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, '{"amountMinor": 1e20}')))$$,
                 'CBV00', 'transfers[0].amountMinor: must be an integer number of minor units', 'amountMinor 10^20');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1) - 'amountMinor'))$$,
                 'CBV00', 'transfers[0].amountMinor: is required', 'no amountMinor');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, '{"memo": "x"}')))$$,
                 'CBV00', 'transfers[0].memo: unknown field', 'an unknown member of an item');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1)), '{"priority": 1}')$$,
                 'CBV00', 'priority: unknown field', 'an unknown member of the request');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, jsonb_build_object('reference', repeat('R', 65)))))$$,
                 'CBV00', 'transfers[0].reference: must be at most 64 characters', 'a reference too long');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, '{"reference": 7}')))$$,
                 'CBV00', 'transfers[0].reference: must be a string', 'a reference that is not a string');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, jsonb_build_object('narrative', repeat('n', 401)))))$$,
                 'CBV00', 'transfers[0].narrative: must be at most 400 characters', 'a narrative too long');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, '{"linked": "yes"}')))$$,
                 'CBV00', 'transfers[0].linked: must be true or false', 'linked not a boolean');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, '{"linked": 1}')))$$,
                 'CBV00', 'transfers[0].linked: must be true or false', 'linked 1');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, '{"narrative": {"text": "rent"}}')))$$,
                 'CBV00', 'transfers[0].narrative: must be a string', 'a nested value names its field');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, '{"currency": "US"}')))$$,
                 'CBV00', 'transfers[0].currency: must be a 3-letter currency code', 'a malformed currency');
SELECT is(pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1, '{"currency": "EUR"}'))) #>> '{results,0,error}',
          'UNPROCESSABLE', 'another currency is left to the source account (the tier refuses it with 400)');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1)), '{"channel": "bad channel"}')$$,
                 'CBV00', 'channel: must be 1 to 32 of A-Z a-z 0-9 _ . -', 'a bad channel');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1)), jsonb_build_object('idempotencyKey', repeat('k', 129)))$$,
                 'CBV00', 'idempotencyKey: must be at most 128 characters', 'an idempotency key too long');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1), pg_temp.t('a', 'b', 1, '{"amountMinor": "x"}'),
                                                          pg_temp.t('a', 'a', 1)))$$,
                 'CBV00', 'transfers[1].amountMinor: must be an integer number of minor units', 'the first bad field is named');
SELECT throws_ok($$SELECT corebank.core_transfer_batch(jsonb_build_object('transfers', jsonb_build_array(pg_temp.t('a', 'b', 1))), NULL)$$,
                 'CBV00', 'actor: is required', 'an actor is required');
SELECT throws_ok($$SELECT corebank.core_transfer_batch(NULL, pg_temp.operator())$$, 'CBV00', 'request: is required',
                 'a request is required');
-- Nothing is written, not even a number taken, before a CBV00.
CREATE TEMP TABLE before_v AS SELECT pg_temp.seq() AS seq, pg_temp.bals('a', 'b') AS bals;
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 500), pg_temp.t('a', 'b', 500, '{"linked": "no"}')))$$,
                 'CBV00', 'transfers[1].linked: must be true or false', 'a valid transfer before a bad one');
SELECT is(pg_temp.seq() || ' ' || pg_temp.bals('a', 'b')::text, (SELECT seq || ' ' || bals::text FROM before_v),
          'no number taken, no balance moved');

-- 8. Idempotency.
CREATE TEMP TABLE k1 AS SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 25)), '{"idempotencyKey": "batch-key-1"}') AS r;
SELECT is(pg_temp.outcomes(r), ARRAY['POSTED'], 'a keyed batch posts') FROM k1;
CREATE TEMP TABLE counted AS SELECT count(*) AS n FROM corebank.journal_entries;
SELECT is(pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 25)), '{"idempotencyKey": "batch-key-1"}'), (SELECT r FROM k1),
          'the same key and request return the first response');
SELECT is((SELECT count(*) FROM corebank.journal_entries), (SELECT n FROM counted), 'and post nothing');
SELECT is(pg_temp.bals('a', 'b'), ARRAY[112914, 9196]::bigint[], 'the money moved once');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 26)), '{"idempotencyKey": "batch-key-1"}')$$,
                 'CB409', 'idempotencyKey was already used for a different request', 'another request under the key');
SELECT is((pg_temp.move(pg_temp.acc('a'), pg_temp.acc('b'), 25, '{"idempotencyKey": "batch-key-1"}') ->> 'status'), 'POSTED',
          'a single transfer''s keys are another scope');
-- A repeat returns the stored response even when the state changed since.
CREATE TEMP TABLE k2 AS SELECT jsonb_build_object('idempotencyKey', 'batch-key-2', 'transfers',
                                                  jsonb_build_array(pg_temp.t('b', 'c', pg_temp.bal(pg_temp.acc('b')) + 1))) AS req;
CREATE TEMP TABLE k2r AS SELECT pg_temp.raw((SELECT req FROM k2)) AS r;
SELECT is(pg_temp.outcomes(r), ARRAY['UNPROCESSABLE'], 'a keyed batch that fails') FROM k2r;
SELECT pg_temp.move(pg_temp.acc('a'), pg_temp.acc('b'), 100);
SELECT is(pg_temp.raw((SELECT req FROM k2)), (SELECT r FROM k2r), 'its repeat is the stored response, not decided again');
SELECT is(pg_temp.bals('b', 'c'), ARRAY[9321, 2500]::bigint[], 'and moves nothing');

-- 9. The tier's role may call it.
SELECT jsonb_build_object('transfers', jsonb_build_array(pg_temp.t('a', 'b', 1))) AS app_request \gset
SET ROLE corebank_app;
SELECT is(corebank.core_transfer_batch(:'app_request', '00000000-0000-4000-8000-000000000003') -> 'results' -> 0 ->> 'status',
          'POSTED', 'corebank_app executes core_transfer_batch');
RESET ROLE;

-- 10. The ledger after all these batches.
SELECT throws_ok($$
    INSERT INTO corebank.transactions (id, reference, type, status, value_date, branch_id, channel, operator_id)
    VALUES ('00000000-0000-4000-8000-00000000bbbb', 'DIRECT', 'ADJUSTMENT', 'PENDING', '2026-03-10', pg_temp.branch(),
            'TEST', pg_temp.operator());
    INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id, currency, side, amount_minor,
                                          branch_id, value_date, channel, operator_id)
    VALUES ('00000000-0000-4000-8000-00000000bbbb', 1, pg_temp.gl('1000'), 'USD', 'D', 500, pg_temp.branch(), '2026-03-10', 'TEST', pg_temp.operator()),
           ('00000000-0000-4000-8000-00000000bbbb', 2, pg_temp.gl('1900'), 'USD', 'C', 499, pg_temp.branch(), '2026-03-10', 'TEST', pg_temp.operator());
    SET CONSTRAINTS ALL IMMEDIATE$$,
    'CB422', 'transaction is not balanced in USD', 'an unbalanced transaction among the batch postings is refused at commit');
SELECT lives_ok('SET CONSTRAINTS ALL IMMEDIATE', 'every batch transaction passes the deferred balance check');
SELECT is((SELECT count(*) FROM corebank.ledger_verify_chain()), 0::bigint, 'ledger_verify_chain finds no problem');
SELECT ok(pg_temp.ledger_healthy(), 'ledger_check_balances finds no problem');
SELECT is((SELECT count(*) FROM (SELECT currency FROM corebank.trial_balance_as_of('2026-03-10')
                                 GROUP BY currency HAVING sum(debit_minor) <> sum(credit_minor)) x),
          0::bigint, 'the trial balance balances per currency');
SELECT is((SELECT count(*) FROM (SELECT e.transaction_id FROM corebank.journal_entries e JOIN corebank.transactions t ON t.id = e.transaction_id
                                 WHERE t.value_date = '2026-03-10' GROUP BY e.transaction_id
                                 HAVING sum(CASE e.side WHEN 'D' THEN e.amount_minor ELSE -e.amount_minor END) <> 0
                                     OR count(*) <> 2) x),
          0::bigint, 'every transaction of the day: two entries, balanced');
CREATE TEMP TABLE st AS SELECT corebank.core_statement(pg_temp.acc('c'), '2026-03-10', '2026-03-10') AS r;
SELECT is((SELECT (r ->> 'closingBalanceMinor')::bigint FROM st), pg_temp.bal(pg_temp.acc('c')),
          'a statement''s closing balance is the ledger balance');
SELECT ok((SELECT r -> 'lines' FROM st) @> jsonb_build_array(jsonb_build_object('transactionId', pg_temp.tx(b1.r, 1), 'type', 'TRANSFER',
                                                                                   'side', 'CREDIT', 'amountMinor', 1000)),
          'and shows the batch transfer') FROM b1;
-- Direct SQL cannot undo or edit what a batch posted.
CREATE TEMP TABLE bt AS SELECT pg_temp.tx(r, 0) AS id FROM b1;
SELECT throws_ok($$UPDATE corebank.journal_entries SET amount_minor = 1 WHERE transaction_id = (SELECT id FROM bt)$$, '42501',
                 'corebank.journal_entries is append-only', 'a batch entry cannot be updated');
SELECT throws_ok($$DELETE FROM corebank.journal_entries WHERE transaction_id = (SELECT id FROM bt)$$, '42501',
                 'corebank.journal_entries is append-only', 'a batch entry cannot be deleted');
SELECT throws_ok($$UPDATE corebank.transactions SET reference = 'X' WHERE id = (SELECT id FROM bt)$$, 'CB422',
                 'posted transactions are immutable; correct them with a reversal', 'a batch transaction is frozen');
SELECT throws_ok($$
    INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id, currency, side, amount_minor,
                                          branch_id, value_date, channel, operator_id)
    VALUES ((SELECT id FROM bt), 3, pg_temp.gl('1000'), 'USD', 'D', 1, pg_temp.branch(), '2026-03-10', 'TEST', pg_temp.operator())$$,
    'CB422', 'transaction is not balanced in USD', 'an entry added to a batch transaction is refused');

-- 11. TRANSACTION numbers from the sequence; LOAN and ACCOUNT gap-free.
CREATE TEMP TABLE n1 AS SELECT corebank.next_number('TRANSACTION') AS x;
CREATE TEMP TABLE n2 AS SELECT corebank.next_number('TRANSACTION') AS x;
SELECT ok((SELECT x FROM n1) ~ '^TX[0-9]{10}$' AND pg_temp.digits((SELECT x FROM n2)) > pg_temp.digits((SELECT x FROM n1)),
          'next_number(''TRANSACTION'') gives increasing numbers');
SELECT is((SELECT (n ->> 'nextValue')::bigint FROM jsonb_array_elements(corebank.core_numbering_list()) n
           WHERE n ->> 'entityType' = 'TRANSACTION'),
          pg_temp.digits((SELECT x FROM n2)) + 1, 'core_numbering_list shows the sequence''s next value');
SELECT is((SELECT pg_temp.seq()), pg_temp.digits((SELECT x FROM n2)) || '/true', 'the numbers are the sequence''s');
SELECT is(corebank.core_numbering_update('TRANSACTION', jsonb_build_object('nextValue', pg_temp.digits((SELECT x FROM n2)) + 1000),
                                         pg_temp.maker()) ->> 'nextValue',
          (pg_temp.digits((SELECT x FROM n2)) + 1000)::text, 'core_numbering_update moves the sequence forward');
CREATE TEMP TABLE n3x AS SELECT corebank.next_number('TRANSACTION') AS x;
SELECT is((SELECT x FROM n3x), 'TX' || lpad((pg_temp.digits((SELECT x FROM n2)) + 1000)::text, 10, '0'), 'the next number follows');
SELECT throws_ok($$SELECT corebank.core_numbering_update('TRANSACTION', '{"nextValue": 5}', pg_temp.maker())$$,
                 'CB422', format('nextValue may only move forward (it is %s)', pg_temp.digits((SELECT x FROM n3x)) + 1),
                 'the sequence never goes back');
SELECT throws_ok('DO $d$ BEGIN PERFORM corebank.next_number(''TRANSACTION''); RAISE EXCEPTION ''rolled back''; END $d$',
                 'P0001', 'rolled back', 'a TRANSACTION number taken in a rolled-back transaction');
SELECT is(pg_temp.digits(corebank.next_number('TRANSACTION')), pg_temp.digits((SELECT x FROM n3x)) + 2,
          'leaves a gap');
CREATE TEMP TABLE l1 AS SELECT corebank.next_number('LOAN') AS x, corebank.next_number('ACCOUNT') AS y;
SELECT throws_ok('DO $d$ BEGIN PERFORM corebank.next_number(''LOAN''), corebank.next_number(''ACCOUNT''); RAISE EXCEPTION ''rolled back''; END $d$',
                 'P0001', 'rolled back', 'LOAN and ACCOUNT numbers taken in a rolled-back transaction');
SELECT is(ARRAY[pg_temp.digits(corebank.next_number('LOAN')), pg_temp.digits(corebank.next_number('ACCOUNT'))],
          ARRAY[pg_temp.digits((SELECT x FROM l1)) + 1, pg_temp.digits((SELECT y FROM l1)) + 1],
          'are issued again: LOAN and ACCOUNT stay gap-free');
SELECT throws_ok($$SELECT corebank.core_numbering_update('LOAN', '{"nextValue": 1}', pg_temp.maker())$$,
                 'CB422', format('nextValue may only move forward (it is %s)', pg_temp.digits((SELECT x FROM l1)) + 2),
                 'the LOAN numbering row never goes back either');
SELECT is(corebank.core_numbering_update('TRANSACTION', '{"prefix": "TRX-", "padding": 12}', pg_temp.maker()) ->> 'prefix', 'TRX-',
          'the TRANSACTION prefix and padding change');
SELECT ok((SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1))) -> 'results' -> 0 ->> 'reference') ~ '^TRX-[0-9]{12}$',
          'a batch numbers with the new format');

-- 12. A closed period refuses the whole batch.
INSERT INTO corebank.accounting_periods (period, status, closed_at) VALUES ('2026-03', 'CLOSED', now())
ON CONFLICT (period) DO UPDATE SET status = 'CLOSED', closed_at = now();
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('a', 'b', 1), pg_temp.t('b', 'a', 1)))$$,
                 'CB422', 'accounting period 2026-03 is closed', 'a closed period: CB422 for the whole request');
SELECT throws_ok($$SELECT pg_temp.batch(jsonb_build_array(pg_temp.t('nobody', 'b', 1)))$$,
                 'CB422', 'accounting period 2026-03 is closed', 'even when no transfer would post');

SELECT * FROM finish();
ROLLBACK;
