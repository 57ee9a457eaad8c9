/* sql/corebank--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION corebank UPDATE TO '1.5'" to load this file. \quit

-- corebank 1.5: proof under load (issue 7).
--   - Batch transfers: corebank.core_transfer_batch, up to 8,000 transfers in
--     one transaction with linked (all-or-nothing) chains
--     (docs/design/batch-transfers.md).
--   - TRANSACTION numbers from a sequence: every posting used to take the
--     numbering row's lock until commit, so postings of the whole platform
--     committed one after another. They are now unique and increasing, with
--     a gap where a posting rolled back. LOAN, ACCOUNT and APPLICATION stay
--     gap-free.

-- numbering

CREATE SEQUENCE corebank.transaction_numbers AS bigint MINVALUE 1 MAXVALUE 999999999999999999 NO CYCLE;
COMMENT ON SEQUENCE corebank.transaction_numbers IS
    'TRANSACTION numbers (from 1.5); numbering_config.next_value is not used for TRANSACTION';
SELECT setval('corebank.transaction_numbers',
              (SELECT n.next_value FROM corebank.numbering_config n WHERE n.entity_type = 'TRANSACTION'), false);
COMMENT ON COLUMN corebank.numbering_config.next_value IS
    'Next number of a gap-free entity type; for TRANSACTION see the sequence corebank.transaction_numbers';

CREATE OR REPLACE FUNCTION corebank.next_number(entity_type text) RETURNS text
    AS 'MODULE_PATHNAME', 'numbering_next'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

-- The value the next call of next_number('TRANSACTION') returns.
CREATE FUNCTION corebank_internal.transaction_number_peek() RETURNS bigint
    LANGUAGE sql VOLATILE
    AS $fn$
    SELECT CASE WHEN s.is_called THEN s.last_value + 1 ELSE s.last_value END FROM corebank.transaction_numbers s
$fn$;

CREATE OR REPLACE FUNCTION corebank_internal.numbering_json(entity_type text) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    sequence_next bigint;
BEGIN
    IF numbering_json.entity_type = 'TRANSACTION' THEN
        sequence_next := corebank_internal.transaction_number_peek();
    END IF;
    RETURN (SELECT jsonb_build_object(
                'entityType', n.entity_type, 'prefix', n.prefix, 'padding', n.padding,
                'nextValue', coalesce(sequence_next, n.next_value),
                'example', corebank_internal.format_number(n.prefix, n.padding, coalesce(sequence_next, n.next_value)),
                'updatedAt', corebank_internal.iso_utc(n.updated_at), 'updatedBy', n.updated_by)
            FROM corebank.numbering_config n WHERE n.entity_type = numbering_json.entity_type);
END
$fn$;

-- UpdateNumberingConfigRequest: {prefix?, padding?, nextValue?}; nextValue
-- only moves forward. For TRANSACTION it moves the sequence; a number that a
-- posting takes in the same instant as the move may be issued again, so move
-- it at a quiet time (references are labels, not keys: transactions are
-- identified by id).
CREATE OR REPLACE FUNCTION corebank.core_numbering_update(entity_type text, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    kind text := upper(btrim(entity_type));
    new_prefix text;
    new_padding int;
    new_next bigint;
    current corebank.numbering_config;
    current_next bigint;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF kind IS NULL OR kind NOT IN ('LOAN', 'ACCOUNT', 'TRANSACTION', 'APPLICATION') THEN
        PERFORM corebank_internal.fail('CBV00', 'entityType: must be LOAN, ACCOUNT, TRANSACTION or APPLICATION');
    END IF;
    IF request IS NULL OR jsonb_typeof(request) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'request: must be a JSON object');
    END IF;
    IF request ? 'prefix' AND jsonb_typeof(request -> 'prefix') <> 'null' THEN
        IF jsonb_typeof(request -> 'prefix') <> 'string' OR (request ->> 'prefix') !~ '^[A-Z0-9-]{0,10}$' THEN
            PERFORM corebank_internal.fail('CBV00', 'prefix: must be at most 10 of A-Z 0-9 -');
        END IF;
        new_prefix := request ->> 'prefix';
    END IF;
    new_padding := corebank_internal.json_int(request, 'padding', 4, 20);
    new_next := corebank_internal.json_int(request, 'nextValue', 1, 999999999999999999);
    SELECT * INTO current FROM corebank.numbering_config n WHERE n.entity_type = kind FOR UPDATE;
    current_next := CASE WHEN kind = 'TRANSACTION' THEN corebank_internal.transaction_number_peek()
                         ELSE current.next_value END;
    IF new_next < current_next THEN
        PERFORM corebank_internal.fail('CB422', format('nextValue may only move forward (it is %s)', current_next));
    END IF;
    IF kind = 'TRANSACTION' AND new_next IS NOT NULL AND new_next > current_next THEN
        PERFORM setval('corebank.transaction_numbers', new_next, false);
    END IF;
    UPDATE corebank.numbering_config n
    SET prefix = coalesce(new_prefix, n.prefix), padding = coalesce(new_padding, n.padding),
        next_value = CASE WHEN kind = 'TRANSACTION' THEN n.next_value ELSE coalesce(new_next, n.next_value) END,
        updated_at = now(), updated_by = actor
    WHERE n.entity_type = kind;
    RETURN corebank_internal.numbering_json(kind);
END
$fn$;

-- money: a posting is rendered once
--
-- The money functions used to return the new transaction's id, and
-- money_run rendered the transaction again to store it under the
-- idempotency key (half of the rendering cost of every deposit, withdrawal,
-- transfer and fee). The *_posting functions below return the rendered
-- TransactionResponse of account_post; the old ones (still called by account
-- opening and standing orders) keep their signatures as wrappers.

CREATE FUNCTION corebank_internal.money_idempotency_store(key text, transaction_id uuid, response jsonb) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'money_idempotency_store' LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank_internal.money_deposit_posting(request jsonb, actor uuid, customer_initiated bool) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    amount bigint := corebank_internal.json_positive_amount(request);
    a record;
    source uuid;
    header jsonb;
BEGIN
    SELECT * INTO a FROM corebank_internal.deposit_account_row(corebank_internal.json_uuid(request, 'accountId'), 'accountId', true);
    PERFORM corebank_internal.money_currency_check(request, a.currency, a.account_number);
    IF a.internal THEN
        PERFORM corebank_internal.fail('CB422', 'Internal accounts move money by transfer only');
    END IF;
    PERFORM corebank_internal.money_fixed_deposit_check(a.account_id, a.account_type, a.account_number);
    source := corebank_internal.money_gl(coalesce(corebank_internal.json_trimmed(request, 'sourceGlAccountCode', 20), '1000'),
                                         a.currency, 'ASSET', 'sourceGlAccountCode');
    header := corebank_internal.money_header(request, 'DEPOSIT', actor, a.branch_id);
    RETURN corebank_internal.account_post(header || jsonb_build_object('lines', jsonb_build_array(
                jsonb_build_object('glAccountId', source, 'side', 'D', 'amountMinor', amount, 'currency', a.currency),
                jsonb_build_object('accountId', a.account_id, 'side', 'C', 'amountMinor', amount, 'currency', a.currency,
                                   'narrative', coalesce(corebank_internal.json_trimmed(request, 'narrative', 500), 'Deposit')))),
            jsonb_build_object('customer', CASE WHEN customer_initiated THEN jsonb_build_array(a.account_id)
                                                ELSE '[]'::jsonb END,
                               'minimumBalance', '[]'::jsonb));
END
$fn$;

CREATE OR REPLACE FUNCTION corebank_internal.money_deposit(request jsonb, actor uuid, customer_initiated bool) RETURNS uuid
    LANGUAGE sql
    AS $fn$ SELECT (corebank_internal.money_deposit_posting(request, actor, customer_initiated) ->> 'id')::uuid $fn$;

CREATE FUNCTION corebank_internal.money_withdraw_posting(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    amount bigint := corebank_internal.json_positive_amount(request);
    a record;
    destination uuid;
    fee_gl uuid;
    penalty bigint;
    header jsonb;
    lines jsonb;
BEGIN
    SELECT * INTO a FROM corebank_internal.deposit_account_row(corebank_internal.json_uuid(request, 'accountId'), 'accountId', true);
    PERFORM corebank_internal.money_currency_check(request, a.currency, a.account_number);
    IF a.internal THEN
        PERFORM corebank_internal.fail('CB422', 'Internal accounts move money by transfer only');
    END IF;
    destination := corebank_internal.money_gl(
        coalesce(corebank_internal.json_trimmed(request, 'destinationGlAccountCode', 20), '1000'),
        a.currency, 'ASSET', 'destinationGlAccountCode');
    penalty := corebank_internal.money_penalty(a.account_type, a.maturity_date, a.penalty_bp, amount);
    fee_gl := corebank_internal.gl_id('4100', a.currency);
    lines := jsonb_build_array(
        jsonb_build_object('accountId', a.account_id, 'side', 'D', 'amountMinor', amount + a.withdrawal_fee_minor + penalty,
                           'currency', a.currency,
                           'narrative', coalesce(corebank_internal.json_trimmed(request, 'narrative', 500), 'Withdrawal')),
        jsonb_build_object('glAccountId', destination, 'side', 'C', 'amountMinor', amount, 'currency', a.currency));
    IF a.withdrawal_fee_minor > 0 THEN
        lines := lines || jsonb_build_object('glAccountId', fee_gl, 'side', 'C', 'amountMinor', a.withdrawal_fee_minor,
                                             'currency', a.currency, 'narrative', 'Withdrawal fee');
    END IF;
    IF penalty > 0 THEN
        lines := lines || jsonb_build_object('glAccountId', fee_gl, 'side', 'C', 'amountMinor', penalty,
                                             'currency', a.currency, 'narrative', 'Early withdrawal penalty');
    END IF;
    header := corebank_internal.money_header(request, 'WITHDRAWAL', actor, a.branch_id);
    RETURN corebank_internal.account_post(header || jsonb_build_object('lines', lines),
            jsonb_build_object('customer', jsonb_build_array(a.account_id),
                               'minimumBalance', jsonb_build_array(a.account_id)));
END
$fn$;

CREATE OR REPLACE FUNCTION corebank_internal.money_withdraw(request jsonb, actor uuid) RETURNS uuid
    LANGUAGE sql
    AS $fn$ SELECT (corebank_internal.money_withdraw_posting(request, actor) ->> 'id')::uuid $fn$;

CREATE FUNCTION corebank_internal.money_transfer_posting(request jsonb, actor uuid, customer_initiated bool) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    amount bigint := corebank_internal.json_positive_amount(request);
    from_id uuid := corebank_internal.json_uuid(request, 'fromAccountId');
    to_id uuid := corebank_internal.json_uuid(request, 'toAccountId');
    source record;
    target record;
    header jsonb;
    value_date date;
    fx record;
    converted bigint;
    penalty bigint;
    lines jsonb;
    customer_lines jsonb := '[]'::jsonb;
    narrative text := corebank_internal.json_trimmed(request, 'narrative', 400);
BEGIN
    IF from_id IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'fromAccountId: is required'); END IF;
    IF to_id IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'toAccountId: is required'); END IF;
    IF from_id = to_id THEN
        PERFORM corebank_internal.fail('CBV00', 'toAccountId: must differ from fromAccountId');
    END IF;
    -- Both ledger rows, in id order (the posting engine's order).
    PERFORM FROM corebank.ledger_accounts a WHERE a.id IN (from_id, to_id) ORDER BY a.id FOR UPDATE;
    SELECT * INTO source FROM corebank_internal.deposit_account_row(from_id, 'fromAccountId');
    SELECT * INTO target FROM corebank_internal.deposit_account_row(to_id, 'toAccountId');
    PERFORM corebank_internal.money_currency_check(request, source.currency, source.account_number);
    PERFORM corebank_internal.money_fixed_deposit_check(target.account_id, target.account_type, target.account_number);
    header := corebank_internal.money_header(request, 'TRANSFER', actor, source.branch_id);
    value_date := coalesce((header ->> 'valueDate')::date, corebank_internal.business_today());
    penalty := corebank_internal.money_penalty(source.account_type, source.maturity_date, source.penalty_bp, amount);
    narrative := coalesce(narrative, format('Transfer %s to %s', source.account_number, target.account_number));

    IF source.currency = target.currency THEN
        lines := jsonb_build_array(
            jsonb_build_object('accountId', from_id, 'side', 'D', 'amountMinor', amount + penalty,
                               'currency', source.currency, 'narrative', narrative),
            jsonb_build_object('accountId', to_id, 'side', 'C', 'amountMinor', amount, 'currency', target.currency,
                               'narrative', narrative));
    ELSE
        SELECT * INTO fx FROM corebank_internal.fx_rate_in_force(source.currency, target.currency, value_date);
        IF fx.rate IS NULL THEN
            PERFORM corebank_internal.fail('CB422', format('No exchange rate from %s to %s on %s', source.currency,
                                                           target.currency, value_date));
        END IF;
        converted := corebank_internal.fx_convert(amount, fx.rate::text);
        IF converted IS NULL OR converted <= 0 THEN
            PERFORM corebank_internal.fail('CB422', 'The converted amount is zero or too large');
        END IF;
        narrative := narrative || format(' at %s %s/%s', rtrim(rtrim(fx.rate::text, '0'), '.'), target.currency, source.currency);
        lines := jsonb_build_array(
            jsonb_build_object('accountId', from_id, 'side', 'D', 'amountMinor', amount + penalty,
                               'currency', source.currency, 'narrative', narrative),
            jsonb_build_object('glAccountId', corebank_internal.gl_id('2900', source.currency), 'side', 'C',
                               'amountMinor', amount, 'currency', source.currency, 'narrative', narrative),
            jsonb_build_object('glAccountId', corebank_internal.gl_id('2900', target.currency), 'side', 'D',
                               'amountMinor', converted, 'currency', target.currency, 'narrative', narrative),
            jsonb_build_object('accountId', to_id, 'side', 'C', 'amountMinor', converted, 'currency', target.currency,
                               'narrative', narrative));
    END IF;
    IF penalty > 0 THEN
        lines := lines || jsonb_build_object('glAccountId', corebank_internal.gl_id('4100', source.currency), 'side', 'C',
                                             'amountMinor', penalty, 'currency', source.currency,
                                             'narrative', 'Early withdrawal penalty');
    END IF;
    IF customer_initiated THEN
        customer_lines := jsonb_build_array(from_id);
        -- Between two accounts of one customer, both ends are the customer's doing.
        IF source.customer_id IS NOT NULL AND source.customer_id = target.customer_id THEN
            customer_lines := customer_lines || jsonb_build_array(to_id);
        END IF;
    END IF;
    RETURN corebank_internal.account_post(header || jsonb_build_object('lines', lines),
            jsonb_build_object('customer', customer_lines,
                               'minimumBalance', CASE WHEN source.internal THEN '[]'::jsonb
                                                      ELSE jsonb_build_array(from_id) END));
END
$fn$;

CREATE OR REPLACE FUNCTION corebank_internal.money_transfer(request jsonb, actor uuid, customer_initiated bool) RETURNS uuid
    LANGUAGE sql
    AS $fn$ SELECT (corebank_internal.money_transfer_posting(request, actor, customer_initiated) ->> 'id')::uuid $fn$;

CREATE FUNCTION corebank_internal.money_fee_posting(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    amount bigint := corebank_internal.json_positive_amount(request);
    description text := corebank_internal.json_trimmed(request, 'description', 500);
    a record;
    income uuid;
    header jsonb;
BEGIN
    IF description IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'description: is required');
    END IF;
    SELECT * INTO a FROM corebank_internal.deposit_account_row(corebank_internal.json_uuid(request, 'accountId'), 'accountId', true);
    PERFORM corebank_internal.money_currency_check(request, a.currency, a.account_number);
    IF a.internal THEN
        PERFORM corebank_internal.fail('CB422', 'Internal accounts move money by transfer only');
    END IF;
    income := corebank_internal.money_gl(coalesce(corebank_internal.json_trimmed(request, 'incomeGlAccountCode', 20), '4100'),
                                         a.currency, 'INCOME', 'incomeGlAccountCode');
    header := corebank_internal.money_header(request, 'FEE', actor, a.branch_id);
    RETURN corebank_internal.account_post(header || jsonb_build_object('lines', jsonb_build_array(
                jsonb_build_object('accountId', a.account_id, 'side', 'D', 'amountMinor', amount, 'currency', a.currency,
                                   'narrative', description),
                jsonb_build_object('glAccountId', income, 'side', 'C', 'amountMinor', amount, 'currency', a.currency,
                                   'narrative', description))),
            '{"customer": [], "minimumBalance": []}'::jsonb);
END
$fn$;

CREATE OR REPLACE FUNCTION corebank_internal.money_fee(request jsonb, actor uuid) RETURNS uuid
    LANGUAGE sql
    AS $fn$ SELECT (corebank_internal.money_fee_posting(request, actor) ->> 'id')::uuid $fn$;

-- The idempotent shell of the four money functions: a key is claimed before
-- any work, so a repeat returns the first response and posts nothing.
CREATE OR REPLACE FUNCTION corebank_internal.money_run(operation text, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    key text;
    replay jsonb;
    posted jsonb;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    key := corebank_internal.json_text(request, 'idempotencyKey', 128);
    IF key IS NOT NULL THEN
        replay := corebank_internal.money_idempotency_claim(key, jsonb_build_object('operation', operation,
                                                                                    'request', request));
        IF replay IS NOT NULL THEN
            RETURN replay;
        END IF;
    END IF;
    posted := CASE operation
                  WHEN 'deposit' THEN corebank_internal.money_deposit_posting(request, actor, true)
                  WHEN 'withdrawal' THEN corebank_internal.money_withdraw_posting(request, actor)
                  WHEN 'transfer' THEN corebank_internal.money_transfer_posting(request, actor, true)
                  WHEN 'fee' THEN corebank_internal.money_fee_posting(request, actor)
              END;
    IF key IS NOT NULL THEN
        RETURN corebank_internal.money_idempotency_store(key, (posted ->> 'id')::uuid, posted);
    END IF;
    RETURN posted;
END
$fn$;

-- The TransactionResponse of a transaction (as in 1.1, but for the approval
-- lookup, which runs only for a parked transaction).
CREATE OR REPLACE FUNCTION corebank_internal.transaction_json(transaction_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    t corebank.transactions;
    lines jsonb;
    totals jsonb;
    approval_status text;
    branch_code text;
BEGIN
    SELECT * INTO t FROM corebank.transactions x WHERE x.id = transaction_json.transaction_id;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    -- Only a parked transaction has an approval: asking with a NULL id made
    -- PostgreSQL plan the query anew on every call (a custom plan for the
    -- NULL always looked cheaper), a measurable part of every posting.
    IF t.parked_change_id IS NOT NULL THEN
        SELECT corebank_internal.change_status(p.status, p.expires_at) INTO approval_status
        FROM corebank.parked_changes p WHERE p.id = t.parked_change_id;
    END IF;
    SELECT b.code INTO branch_code FROM corebank.branches b WHERE b.id = t.branch_id;

    WITH l AS (
        SELECT e.line_no, e.gl_account_id, e.ledger_account_id, e.currency, e.side, e.amount_minor, e.narrative
        FROM corebank.journal_entries e
        WHERE e.transaction_id = t.id AND t.status IN ('POSTED', 'REVERSED')
        UNION ALL
        SELECT p.line_no, p.gl_account_id, p.ledger_account_id, p.currency, p.side, p.amount_minor, p.narrative
        FROM corebank.transaction_lines_proposed p
        WHERE p.transaction_id = t.id AND t.status IN ('PENDING', 'CANCELLED')
    ), rendered AS (
        SELECT l.*, c.minor_units, g.code AS gl_code, g.name AS gl_name, a.account_number
        FROM l
        JOIN corebank.currencies c ON c.code = l.currency
        JOIN corebank.gl_accounts g ON g.id = l.gl_account_id
        LEFT JOIN corebank.ledger_accounts a ON a.id = l.ledger_account_id
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'lineNo', r.line_no, 'glAccountId', r.gl_account_id, 'glAccountCode', r.gl_code,
               'glAccountName', r.gl_name, 'accountId', r.ledger_account_id, 'accountNumber', r.account_number,
               'currency', r.currency, 'side', CASE r.side WHEN 'D' THEN 'DEBIT' ELSE 'CREDIT' END,
               'amountMinor', r.amount_minor, 'amount', corebank_internal.amount_text(r.amount_minor, r.minor_units),
               'narrative', r.narrative) ORDER BY r.line_no), '[]'::jsonb),
           (SELECT coalesce(jsonb_agg(jsonb_build_object(
                       'currency', s.currency, 'debitMinor', s.debit_minor, 'creditMinor', s.credit_minor,
                       'debit', corebank_internal.amount_text(s.debit_minor, s.minor_units),
                       'credit', corebank_internal.amount_text(s.credit_minor, s.minor_units)) ORDER BY s.currency),
                   '[]'::jsonb)
            FROM (SELECT r2.currency, r2.minor_units,
                         sum(CASE WHEN r2.side = 'D' THEN r2.amount_minor ELSE 0 END)::bigint AS debit_minor,
                         sum(CASE WHEN r2.side = 'C' THEN r2.amount_minor ELSE 0 END)::bigint AS credit_minor
                  FROM rendered r2 GROUP BY r2.currency, r2.minor_units) s)
    INTO lines, totals
    FROM rendered r;

    RETURN jsonb_build_object(
        'id', t.id, 'reference', t.reference, 'type', t.type, 'status', t.status, 'state', t.status,
        'description', t.description, 'valueDate', t.value_date, 'branchId', t.branch_id,
        'branchCode', branch_code, 'channel', t.channel, 'makerId', t.maker_id, 'operatorId', t.operator_id,
        'idempotencyKey', t.idempotency_key, 'reversesId', t.reverses_id, 'reversedById', t.reversed_by_id,
        'parkedChangeId', t.parked_change_id, 'approvalStatus', approval_status, 'released', t.released,
        -- A single-currency transaction has one amount: its debits (= its credits).
        'currency', CASE WHEN jsonb_array_length(totals) = 1 THEN totals -> 0 ->> 'currency' END,
        'amountMinor', CASE WHEN jsonb_array_length(totals) = 1 THEN totals -> 0 -> 'debitMinor' END,
        'amount', CASE WHEN jsonb_array_length(totals) = 1 THEN totals -> 0 -> 'debit' END,
        'totals', totals, 'entries', lines,
        -- The hash-chain link (hex SHA-256), and where it sits.
        'hash', encode(t.hash, 'hex'),
        'chain', CASE WHEN t.hash IS NOT NULL THEN jsonb_build_object('stripe', t.chain_stripe, 'seq', t.chain_seq) END,
        'createdAt', corebank_internal.iso_utc(t.created_at), 'postedAt', corebank_internal.iso_utc(t.posted_at));
END
$fn$;

-- The core service's two checks of every request in one round trip: the
-- API key (with its rate count) and, when the tier verified a staff token,
-- that token's session. The tier judges the two answers (banking/auth.cpp).
-- PL/pgSQL, not SQL: a SECURITY DEFINER SQL function is never inlined, and
-- PostgreSQL parses and plans its body again on every call; PL/pgSQL keeps
-- its plans for the session.
CREATE FUNCTION corebank.core_authorize(key_hash bytea, service text, jti uuid) RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN jsonb_build_object('key', corebank.core_api_key_authenticate(core_authorize.key_hash, core_authorize.service),
                              'staff', CASE WHEN core_authorize.jti IS NULL THEN NULL
                                            ELSE corebank.auth_authenticate(core_authorize.jti) END);
END
$fn$;

-- batch transfers

ALTER TABLE corebank.idempotency_keys DROP CONSTRAINT idempotency_keys_scope;
ALTER TABLE corebank.idempotency_keys ADD CONSTRAINT idempotency_keys_scope
    CHECK (scope IN ('ledger.post', 'transaction.capture', 'core.money', 'core.transfer_batch'));

-- CreateTransferBatchRequest -> TransferBatchResponse; `actor` is the acting
-- staff member (maker and operator of every transfer).
CREATE FUNCTION corebank.core_transfer_batch(request jsonb, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'core_transfer_batch'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

-- privileges (as before: corebank_app executes the API functions only)

REVOKE ALL ON SEQUENCE corebank.transaction_numbers FROM PUBLIC;
REVOKE ALL ON FUNCTION corebank.core_transfer_batch(jsonb, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION corebank_internal.transaction_number_peek() FROM PUBLIC;
REVOKE ALL ON FUNCTION corebank_internal.money_idempotency_store(text, uuid, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION corebank_internal.money_deposit_posting(jsonb, uuid, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION corebank_internal.money_withdraw_posting(jsonb, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION corebank_internal.money_transfer_posting(jsonb, uuid, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION corebank_internal.money_fee_posting(jsonb, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION corebank.core_authorize(bytea, text, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION corebank.core_transfer_batch(jsonb, uuid), corebank.core_authorize(bytea, text, uuid)
    TO corebank_app;
