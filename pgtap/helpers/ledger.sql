-- helpers/ledger.sql: pg_temp helpers shared by the ledger, maker-checker
-- and core_* tests (included with \ir inside each test's transaction; gone at
-- ROLLBACK).
--
-- Fixed people: maker 00..01, checker 00..02, operator 00..03. Dates: the
-- tests that depend on the business date set platform_config.today_override.

CREATE FUNCTION pg_temp.maker() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $f$ SELECT '00000000-0000-4000-8000-000000000001'::uuid $f$;
CREATE FUNCTION pg_temp.checker() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $f$ SELECT '00000000-0000-4000-8000-000000000002'::uuid $f$;
CREATE FUNCTION pg_temp.operator() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $f$ SELECT '00000000-0000-4000-8000-000000000003'::uuid $f$;

-- The id of GL account `code` in `currency`.
CREATE FUNCTION pg_temp.gl(code text, currency text DEFAULT 'USD') RETURNS uuid LANGUAGE sql STABLE
    AS $f$ SELECT g.id FROM corebank.gl_accounts g WHERE g.code = gl.code AND g.currency = gl.currency $f$;

CREATE FUNCTION pg_temp.branch(code text DEFAULT 'HO') RETURNS uuid LANGUAGE sql STABLE
    AS $f$ SELECT b.id FROM corebank.branches b WHERE b.code = branch.code $f$;

-- Opens a customer account on control account `gl_code` (USD unless said).
CREATE FUNCTION pg_temp.open_account(gl_code text DEFAULT '2000', overdraft bigint DEFAULT 0,
                                     currency text DEFAULT 'USD') RETURNS uuid
    LANGUAGE sql
    AS $f$
    SELECT (corebank.ledger_account_open(jsonb_build_object('glAccountCode', gl_code, 'currency', currency,
                                                            'allowOverdraftMinor', overdraft)) ->> 'id')::uuid
$f$;

-- A line on a GL account (by code) or on a customer account.
CREATE FUNCTION pg_temp.gl_line(code text, side text, amount bigint, currency text DEFAULT 'USD') RETURNS jsonb
    LANGUAGE sql STABLE
    AS $f$
    SELECT jsonb_build_object('glAccountId', pg_temp.gl(code, currency), 'side', side, 'amountMinor', amount,
                              'currency', currency)
$f$;
CREATE FUNCTION pg_temp.account_line(account uuid, side text, amount bigint, currency text DEFAULT 'USD') RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    AS $f$
    SELECT jsonb_build_object('accountId', account, 'side', side, 'amountMinor', amount, 'currency', currency)
$f$;

-- A ledger_post request at head office; `extra` is merged over it.
CREATE FUNCTION pg_temp.request(lines jsonb, reference text DEFAULT 'REF', extra jsonb DEFAULT '{}') RETURNS jsonb
    LANGUAGE sql STABLE
    AS $f$
    SELECT jsonb_build_object('type', 'TRANSFER', 'reference', reference, 'branchId', pg_temp.branch(),
                              'channel', 'TEST', 'operatorId', pg_temp.operator(), 'lines', lines) || extra
$f$;

CREATE FUNCTION pg_temp.post(lines jsonb, reference text DEFAULT 'REF', extra jsonb DEFAULT '{}') RETURNS jsonb
    LANGUAGE sql
    AS $f$ SELECT corebank.ledger_post(pg_temp.request(lines, reference, extra)) $f$;

-- Cash deposit of `amount` into `account` (debit 1000 Cash, credit the account).
CREATE FUNCTION pg_temp.deposit(account uuid, amount bigint, reference text DEFAULT 'DEP') RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', amount),
                                          pg_temp.account_line(account, 'C', amount)), reference)
$f$;

CREATE FUNCTION pg_temp.balance(account uuid) RETURNS bigint LANGUAGE sql STABLE
    AS $f$ SELECT a.balance_minor FROM corebank.ledger_accounts a WHERE a.id = account $f$;

-- A manual journal of `amount`: debit 5200 Operating expenses, credit 1000 Cash.
CREATE FUNCTION pg_temp.capture(amount bigint DEFAULT 500, extra jsonb DEFAULT '{}') RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.core_transaction_capture(
        jsonb_build_object('type', 'ADJUSTMENT', 'description', 'manual',
                           'entries', jsonb_build_array(
                               jsonb_build_object('glAccountCode', '5200', 'side', 'DEBIT', 'amountMinor', amount),
                               jsonb_build_object('glAccountCode', '1000', 'side', 'CREDIT', 'amountMinor', amount)))
        || extra,
        pg_temp.maker())
$f$;

-- Moves a parked change's expiry into the past (the guard freezes it, so
-- the test disables the guard for the one statement).
CREATE FUNCTION pg_temp.expire(change_id uuid) RETURNS void
    LANGUAGE plpgsql
    AS $f$
BEGIN
    ALTER TABLE corebank.parked_changes DISABLE TRIGGER parked_changes_guard;
    UPDATE corebank.parked_changes
    SET created_at = now() - interval '100 hours', expires_at = now() - interval '1 hour'
    WHERE id = change_id;
    ALTER TABLE corebank.parked_changes ENABLE TRIGGER parked_changes_guard;
END
$f$;

-- 'sqlstate: message / detail' of the error `statement` raises ('no error'
-- when it raises none): what a refusal says, all three parts at once.
CREATE FUNCTION pg_temp.refusal(statement text) RETURNS text
    LANGUAGE plpgsql
    AS $f$
DECLARE
    state text;
    message text;
    detail text;
BEGIN
    EXECUTE statement;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
    RETURN state || ': ' || message || ' / ' || detail;
END
$f$;
