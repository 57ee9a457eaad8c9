-- helpers/deposits.sql: pg_temp helpers shared by the deposits_* tests
-- (issue 4), on top of helpers/ledger.sql (maker, checker, operator, gl,
-- branch). Included with \ir inside each test's transaction; gone at ROLLBACK.
--
-- Dates: the tests that depend on the business date call pg_temp.today().
\ir ledger.sql

-- Sets the engine's today.
CREATE FUNCTION pg_temp.today(day date) RETURNS void
    LANGUAGE sql
    AS $f$ UPDATE corebank.platform_config SET today_override = day $f$;

-- An individual customer; `national_id` makes distinct ones.
CREATE FUNCTION pg_temp.customer(first_name text DEFAULT 'Tendai', national_id text DEFAULT NULL,
                                 extra jsonb DEFAULT '{}') RETURNS uuid
    LANGUAGE sql
    AS $f$
    SELECT (corebank.core_customers_create(
                jsonb_build_object('type', 'INDIVIDUAL', 'firstName', first_name, 'lastName', 'Moyo',
                                   'dateOfBirth', '1990-04-02', 'nationalId', national_id) || extra,
                pg_temp.maker()) ->> 'id')::uuid
$f$;

CREATE FUNCTION pg_temp.corporate(legal_name text DEFAULT 'Acme Mining (Pvt) Ltd', registration text DEFAULT 'REG-1')
    RETURNS uuid
    LANGUAGE sql
    AS $f$
    SELECT (corebank.core_customers_create(
                jsonb_build_object('type', 'CORPORATE', 'legalName', legal_name, 'registrationNumber', registration),
                pg_temp.maker()) ->> 'id')::uuid
$f$;

-- Opens an account on a product; `initial` is the opening cash deposit.
CREATE FUNCTION pg_temp.open(customer uuid, product text DEFAULT 'SAV-STD', initial bigint DEFAULT NULL,
                             extra jsonb DEFAULT '{}') RETURNS uuid
    LANGUAGE sql
    AS $f$
    SELECT (corebank.core_accounts_open(
                jsonb_strip_nulls(jsonb_build_object('customerId', customer, 'productCode', product,
                    'initialDeposit', CASE WHEN initial IS NOT NULL THEN jsonb_build_object('amountMinor', initial) END))
                || extra,
                pg_temp.operator()) ->> 'id')::uuid
$f$;

CREATE FUNCTION pg_temp.put(account uuid, amount bigint, extra jsonb DEFAULT '{}') RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.core_deposit(jsonb_build_object('accountId', account, 'amountMinor', amount) || extra,
                                 pg_temp.operator())
$f$;

CREATE FUNCTION pg_temp.take(account uuid, amount bigint, extra jsonb DEFAULT '{}') RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.core_withdraw(jsonb_build_object('accountId', account, 'amountMinor', amount) || extra,
                                  pg_temp.operator())
$f$;

CREATE FUNCTION pg_temp.move(source uuid, target uuid, amount bigint, extra jsonb DEFAULT '{}') RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.core_transfer(jsonb_build_object('fromAccountId', source, 'toAccountId', target,
                                                     'amountMinor', amount) || extra,
                                  pg_temp.operator())
$f$;

CREATE FUNCTION pg_temp.bal(account uuid) RETURNS bigint LANGUAGE sql STABLE
    AS $f$ SELECT a.balance_minor FROM corebank.ledger_accounts a WHERE a.id = account $f$;

CREATE FUNCTION pg_temp.status(account uuid) RETURNS text LANGUAGE sql STABLE
    AS $f$ SELECT a.status FROM corebank.ledger_accounts a WHERE a.id = account $f$;

-- Sum of one GL account's entries (debits - credits) in a currency.
CREATE FUNCTION pg_temp.gl_net(code text, currency text DEFAULT 'USD') RETURNS bigint LANGUAGE sql STABLE
    AS $f$
    SELECT coalesce(sum(CASE WHEN e.side = 'D' THEN e.amount_minor ELSE -e.amount_minor END), 0)::bigint
    FROM corebank.journal_entries e WHERE e.gl_account_id = pg_temp.gl(code, currency)
$f$;

-- True when every transaction is balanced per currency and every balance
-- matches its entries.
CREATE FUNCTION pg_temp.ledger_healthy() RETURNS bool LANGUAGE sql STABLE
    AS $f$ SELECT NOT EXISTS (SELECT FROM corebank.ledger_check_balances()) $f$;
