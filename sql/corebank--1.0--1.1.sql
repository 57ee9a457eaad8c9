/* sql/corebank--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION corebank UPDATE TO '1.1'" to load this file. \quit

-- corebank 1.1: the ledger (docs/design/ledger.md).
--
-- Installed on top of 1.0 by ALTER EXTENSION corebank UPDATE, and chained
-- after corebank--1.0.sql by a fresh CREATE EXTENSION corebank.
--
-- What holds, whoever writes (the tier, psql, a superuser without disabling
-- triggers):
--   - every transaction is balanced per currency at commit (deferred
--     constraint trigger journal_entries_balanced);
--   - journal entries are never updated, deleted or truncated; a posted
--     transaction's fields are frozen (only POSTED -> REVERSED moves);
--   - nothing is posted with a value date in a CLOSED accounting period;
--   - a GL account's code and type are frozen once it has been posted to;
--   - customer balances, GL balance stripes and chain heads change only
--     inside the posting engine (C++ writer scope);
--   - a parked change is decided once, never by its maker.
-- The hash chains make a change made with triggers disabled detectable
-- (ledger_verify_chain), and ledger_check_balances recomputes every balance.
--
-- Rules and triggers are C++ (LANGUAGE C, corebank.so); plain reads and
-- simple configuration writes are PL/pgSQL, as in 1.0. API functions are
-- SECURITY DEFINER with search_path pinned and EXECUTE granted to
-- corebank_app; helpers live in corebank_internal with no grant.
--
-- JSON rendered for the tier: camelCase; amounts as amountMinor (integer
-- minor units) plus amount (decimal string, e.g. "12.34"); sides DEBIT or
-- CREDIT; dates YYYY-MM-DD; timestamps ISO 8601 in UTC with microseconds
-- ("2024-05-01T08:30:00.123456Z").

-- reference data

CREATE TABLE corebank.currencies (
    code        char(3) PRIMARY KEY,
    name        text NOT NULL,
    minor_units smallint NOT NULL,
    active      bool NOT NULL DEFAULT true,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT currencies_code CHECK (code ~ '^[A-Z]{3}$'),
    CONSTRAINT currencies_name CHECK (length(name) BETWEEN 1 AND 100),
    CONSTRAINT currencies_minor_units CHECK (minor_units BETWEEN 0 AND 4)
);
COMMENT ON TABLE corebank.currencies IS 'Currencies the ledger accepts (USD, ZWG)';
INSERT INTO corebank.currencies (code, name, minor_units) VALUES
    ('USD', 'US Dollar', 2),
    ('ZWG', 'Zimbabwe Gold', 2);

-- One row. The business date and time zone decide value dates and periods.
CREATE TABLE corebank.platform_config (
    singleton          bool PRIMARY KEY DEFAULT true,
    business_time_zone text NOT NULL DEFAULT 'Africa/Harare',
    today_override     date,
    lapse_hours        int NOT NULL DEFAULT 72,
    branch_scoping     bool NOT NULL DEFAULT false,
    base_currency      char(3) NOT NULL DEFAULT 'USD' REFERENCES corebank.currencies (code),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    updated_by         uuid,
    CONSTRAINT platform_config_singleton CHECK (singleton),
    CONSTRAINT platform_config_time_zone CHECK (length(business_time_zone) BETWEEN 1 AND 64),
    CONSTRAINT platform_config_lapse_hours CHECK (lapse_hours BETWEEN 1 AND 8760)
);
COMMENT ON TABLE corebank.platform_config IS 'Platform configuration (singleton): business time zone, date override, maker-checker lapse';
INSERT INTO corebank.platform_config DEFAULT VALUES;

CREATE TABLE corebank.branches (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    code           text NOT NULL UNIQUE,
    name           text NOT NULL,
    city           text,
    address        text,
    phone          text,
    active         bool NOT NULL DEFAULT true,
    is_head_office bool NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    updated_by     uuid,
    CONSTRAINT branches_code CHECK (code ~ '^[A-Z0-9]{2,10}$'),
    CONSTRAINT branches_texts
        CHECK (length(name) BETWEEN 1 AND 100 AND length(city) <= 100 AND length(address) <= 300
               AND length(phone) <= 32),
    -- The head office is where unscoped staff sit; it cannot be closed.
    CONSTRAINT branches_head_office_active CHECK (active OR NOT is_head_office)
);
COMMENT ON TABLE corebank.branches IS 'Branches; exactly one head office';
CREATE UNIQUE INDEX branches_one_head_office ON corebank.branches ((true)) WHERE is_head_office;
INSERT INTO corebank.branches (code, name, city, is_head_office) VALUES
    ('HO', 'Head Office', 'Harare', true),
    ('HRE', 'Harare Central', 'Harare', false),
    ('BYO', 'Bulawayo', 'Bulawayo', false),
    ('MUT', 'Mutare', 'Mutare', false),
    ('GWE', 'Gweru', 'Gweru', false),
    ('MSV', 'Masvingo', 'Masvingo', false);

-- Gap-free numbering: next_number() takes the row lock until commit.
CREATE TABLE corebank.numbering_config (
    entity_type text PRIMARY KEY,
    prefix      text NOT NULL,
    padding     int NOT NULL DEFAULT 10,
    next_value  bigint NOT NULL DEFAULT 1,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    updated_by  uuid,
    CONSTRAINT numbering_config_entity_type CHECK (entity_type IN ('LOAN', 'ACCOUNT', 'TRANSACTION', 'APPLICATION')),
    CONSTRAINT numbering_config_prefix CHECK (prefix ~ '^[A-Z0-9-]{0,10}$'),
    CONSTRAINT numbering_config_padding CHECK (padding BETWEEN 4 AND 20),
    CONSTRAINT numbering_config_next_value CHECK (next_value BETWEEN 1 AND 999999999999999999)
);
COMMENT ON TABLE corebank.numbering_config IS 'Document numbering: prefix, zero padding, next value';
INSERT INTO corebank.numbering_config (entity_type, prefix) VALUES
    ('LOAN', 'LN'), ('ACCOUNT', 'AC'), ('TRANSACTION', 'TX'), ('APPLICATION', 'AP');

-- chart of accounts

CREATE TABLE corebank.gl_accounts (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    code            text NOT NULL,
    name            text NOT NULL,
    type            text NOT NULL,
    currency        char(3) NOT NULL REFERENCES corebank.currencies (code),
    -- The USD account this ZWG account mirrors (created with it by trigger).
    mirror_of       uuid REFERENCES corebank.gl_accounts (id),
    allow_manual    bool NOT NULL DEFAULT true,
    active          bool NOT NULL DEFAULT true,
    -- Set by the first posting; from then on code and type are frozen.
    first_posted_at timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    created_by      uuid,
    updated_by      uuid,
    UNIQUE (code, currency),
    -- Targets of the composite foreign keys that keep entries and customer
    -- accounts in their GL account's currency.
    UNIQUE (id, currency),
    CONSTRAINT gl_accounts_code CHECK (code ~ '^[A-Za-z0-9._-]{1,20}$'),
    CONSTRAINT gl_accounts_name CHECK (length(name) BETWEEN 1 AND 200),
    CONSTRAINT gl_accounts_type CHECK (type IN ('ASSET', 'LIABILITY', 'EQUITY', 'INCOME', 'EXPENSE')),
    CONSTRAINT gl_accounts_mirror CHECK (mirror_of IS NULL OR currency = 'ZWG')
);
COMMENT ON TABLE corebank.gl_accounts IS 'General ledger accounts; each USD account has a ZWG mirror';
CREATE INDEX gl_accounts_by_mirror ON corebank.gl_accounts (mirror_of) WHERE mirror_of IS NOT NULL;

-- customer (ledger) accounts: issue 4 adds products and lifecycle

CREATE TABLE corebank.ledger_accounts (
    id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    account_number        text NOT NULL UNIQUE,
    customer_id           uuid,
    name                  text,
    gl_account_id         uuid NOT NULL,
    currency              char(3) NOT NULL,
    branch_id             uuid NOT NULL REFERENCES corebank.branches (id),
    status                text NOT NULL DEFAULT 'ACTIVE',
    -- How far below zero the balance may go.
    allow_overdraft_minor bigint NOT NULL DEFAULT 0,
    -- Customer side: credits minus debits (deposits raise it).
    balance_minor         bigint NOT NULL DEFAULT 0,
    version               bigint NOT NULL DEFAULT 0,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (gl_account_id, currency) REFERENCES corebank.gl_accounts (id, currency),
    UNIQUE (id, gl_account_id, currency),
    CONSTRAINT ledger_accounts_number CHECK (account_number ~ '^[A-Za-z0-9-]{1,34}$'),
    CONSTRAINT ledger_accounts_name CHECK (length(name) <= 200),
    CONSTRAINT ledger_accounts_status CHECK (status IN ('ACTIVE', 'FROZEN', 'DORMANT', 'CLOSED')),
    CONSTRAINT ledger_accounts_overdraft CHECK (allow_overdraft_minor >= 0),
    CONSTRAINT ledger_accounts_version CHECK (version >= 0)
);
COMMENT ON TABLE corebank.ledger_accounts IS 'Customer accounts: posting targets with a control GL account';
CREATE INDEX ledger_accounts_by_customer ON corebank.ledger_accounts (customer_id) WHERE customer_id IS NOT NULL;

-- periods and maker-checker

-- A period without a row is OPEN; postings create the row so that they can
-- hold it FOR SHARE, which a concurrent close (UPDATE) waits for.
CREATE TABLE corebank.accounting_periods (
    period    char(7) PRIMARY KEY,
    status    text NOT NULL DEFAULT 'OPEN',
    closed_at timestamptz,
    closed_by uuid,
    CONSTRAINT accounting_periods_period CHECK (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
    CONSTRAINT accounting_periods_status CHECK (status IN ('OPEN', 'CLOSED')),
    CONSTRAINT accounting_periods_closed CHECK ((status = 'CLOSED') = (closed_at IS NOT NULL))
);
COMMENT ON TABLE corebank.accounting_periods IS 'Accounting periods (YYYY-MM); no posting into a CLOSED one';

CREATE TABLE corebank.parked_changes (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    operation   text NOT NULL,
    entity_type text NOT NULL,
    entity_id   text NOT NULL,
    payload     jsonb NOT NULL DEFAULT '{}',
    summary     text NOT NULL,
    maker_id    uuid NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    status      text NOT NULL DEFAULT 'PENDING',
    checker_id  uuid,
    decided_at  timestamptz,
    comment     text,
    reason      text,
    result      jsonb,
    -- Four eyes, whoever writes the row.
    CONSTRAINT parked_changes_checker_not_maker CHECK (checker_id IS DISTINCT FROM maker_id),
    CONSTRAINT parked_changes_operation CHECK (operation ~ '^[a-z_]+(\.[a-z_]+)+$' AND length(operation) <= 64),
    CONSTRAINT parked_changes_entity
        CHECK (entity_type ~ '^[a-z_]{1,40}$' AND length(entity_id) BETWEEN 1 AND 100),
    CONSTRAINT parked_changes_status CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'LAPSED')),
    CONSTRAINT parked_changes_decision
        CHECK (CASE status
                   WHEN 'PENDING' THEN checker_id IS NULL AND decided_at IS NULL
                   WHEN 'LAPSED' THEN checker_id IS NULL AND decided_at IS NOT NULL
                   ELSE checker_id IS NOT NULL AND decided_at IS NOT NULL
               END),
    CONSTRAINT parked_changes_rejection_reason CHECK (status <> 'REJECTED' OR reason IS NOT NULL),
    CONSTRAINT parked_changes_texts
        CHECK (length(summary) BETWEEN 1 AND 500 AND length(comment) <= 1000 AND length(reason) <= 1000),
    CONSTRAINT parked_changes_payload CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT parked_changes_expiry CHECK (expires_at > created_at)
);
COMMENT ON TABLE corebank.parked_changes IS 'Maker-checker: changes waiting for a second person';
-- One pending change per entity and operation (a second request is a conflict).
CREATE UNIQUE INDEX parked_changes_one_pending ON corebank.parked_changes (operation, entity_type, entity_id)
    WHERE status = 'PENDING';
CREATE INDEX parked_changes_by_created ON corebank.parked_changes (created_at DESC, id);
CREATE INDEX parked_changes_pending_expiry ON corebank.parked_changes (expires_at) WHERE status = 'PENDING';

-- transactions and the journal

CREATE TABLE corebank.transactions (
    id               uuid PRIMARY KEY,
    reference        text NOT NULL,
    type             text NOT NULL,
    status           text NOT NULL,
    description      text,
    value_date       date NOT NULL,
    branch_id        uuid NOT NULL REFERENCES corebank.branches (id),
    channel          text NOT NULL,
    maker_id         uuid,
    operator_id      uuid NOT NULL,
    idempotency_key  text,
    reverses_id      uuid REFERENCES corebank.transactions (id),
    reversed_by_id   uuid REFERENCES corebank.transactions (id),
    parked_change_id uuid REFERENCES corebank.parked_changes (id),
    released         bool NOT NULL DEFAULT true,
    chain_stripe     smallint,
    chain_seq        bigint,
    prev_hash        bytea,
    hash             bytea,
    created_at       timestamptz NOT NULL DEFAULT now(),
    posted_at        timestamptz,
    UNIQUE (chain_stripe, chain_seq),
    CONSTRAINT transactions_reference CHECK (length(reference) BETWEEN 1 AND 80),
    CONSTRAINT transactions_type
        CHECK (type IN ('DEPOSIT', 'WITHDRAWAL', 'TRANSFER', 'INTEREST_ACCRUAL', 'FEE', 'LOAN_DISBURSEMENT',
                        'LOAN_REPAYMENT', 'ADJUSTMENT', 'ZIPIT_SEND', 'ZIPIT_RECEIVE', 'RTGS_SEND', 'RTGS_RECEIVE',
                        'MOBILE_MONEY_SEND', 'MOBILE_MONEY_RECEIVE', 'SALARY_PAYMENT', 'BULK_PAYMENT',
                        'BILL_PAYMENT', 'PAYMENT_REVERSAL', 'INVESTMENT_PURCHASE', 'INVESTMENT_MATURITY',
                        'INVESTMENT_SALE', 'INVESTMENT_INTEREST')),
    CONSTRAINT transactions_status CHECK (status IN ('PENDING', 'POSTED', 'REVERSED', 'CANCELLED')),
    CONSTRAINT transactions_channel CHECK (channel ~ '^[A-Za-z0-9_.-]{1,32}$'),
    CONSTRAINT transactions_texts CHECK (length(description) <= 500 AND length(idempotency_key) <= 128),
    CONSTRAINT transactions_posted
        CHECK ((status IN ('POSTED', 'REVERSED'))
               = (posted_at IS NOT NULL AND chain_stripe IS NOT NULL AND chain_seq IS NOT NULL
                  AND prev_hash IS NOT NULL AND hash IS NOT NULL)),
    CONSTRAINT transactions_chain
        CHECK (chain_stripe BETWEEN 0 AND 15 AND chain_seq >= 1 AND length(prev_hash) = 32 AND length(hash) = 32),
    CONSTRAINT transactions_reversed CHECK ((status = 'REVERSED') = (reversed_by_id IS NOT NULL)),
    CONSTRAINT transactions_not_self CHECK (reverses_id <> id AND reversed_by_id <> id),
    CONSTRAINT transactions_released CHECK (released OR status IN ('PENDING', 'CANCELLED'))
);
COMMENT ON TABLE corebank.transactions IS 'Transactions: PENDING (proposed lines), POSTED (journal entries), REVERSED, CANCELLED';
CREATE UNIQUE INDEX transactions_one_reversal ON corebank.transactions (reverses_id) WHERE reverses_id IS NOT NULL;
CREATE INDEX transactions_by_created ON corebank.transactions (created_at DESC, id);
CREATE INDEX transactions_by_value_date ON corebank.transactions (value_date);
CREATE INDEX transactions_by_reference ON corebank.transactions (reference);

-- A PENDING transaction's lines, posted later with the transaction's branch,
-- value date and channel.
CREATE TABLE corebank.transaction_lines_proposed (
    transaction_id    uuid NOT NULL REFERENCES corebank.transactions (id),
    line_no           smallint NOT NULL,
    gl_account_id     uuid NOT NULL,
    ledger_account_id uuid,
    currency          char(3) NOT NULL,
    side              char(1) NOT NULL,
    amount_minor      bigint NOT NULL,
    narrative         text,
    PRIMARY KEY (transaction_id, line_no),
    FOREIGN KEY (gl_account_id, currency) REFERENCES corebank.gl_accounts (id, currency),
    FOREIGN KEY (ledger_account_id, gl_account_id, currency)
        REFERENCES corebank.ledger_accounts (id, gl_account_id, currency),
    CONSTRAINT transaction_lines_proposed_line_no CHECK (line_no BETWEEN 1 AND 256),
    CONSTRAINT transaction_lines_proposed_side CHECK (side IN ('D', 'C')),
    CONSTRAINT transaction_lines_proposed_amount CHECK (amount_minor BETWEEN 1 AND 1000000000000000),
    CONSTRAINT transaction_lines_proposed_narrative CHECK (length(narrative) <= 500)
);
COMMENT ON TABLE corebank.transaction_lines_proposed IS 'Lines of PENDING transactions (not in the journal yet)';

CREATE TABLE corebank.journal_entries (
    id                bigserial PRIMARY KEY,
    transaction_id    uuid NOT NULL REFERENCES corebank.transactions (id),
    line_no           smallint NOT NULL,
    gl_account_id     uuid NOT NULL,
    ledger_account_id uuid,
    currency          char(3) NOT NULL,
    side              char(1) NOT NULL,
    amount_minor      bigint NOT NULL,
    branch_id         uuid NOT NULL REFERENCES corebank.branches (id),
    value_date        date NOT NULL,
    channel           text NOT NULL,
    operator_id       uuid NOT NULL,
    narrative         text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    UNIQUE (transaction_id, line_no),
    -- An entry is in its GL account's currency, and a customer-account entry
    -- is on that account's control GL account in its currency.
    FOREIGN KEY (gl_account_id, currency) REFERENCES corebank.gl_accounts (id, currency),
    FOREIGN KEY (ledger_account_id, gl_account_id, currency)
        REFERENCES corebank.ledger_accounts (id, gl_account_id, currency),
    CONSTRAINT journal_entries_line_no CHECK (line_no BETWEEN 1 AND 256),
    CONSTRAINT journal_entries_side CHECK (side IN ('D', 'C')),
    CONSTRAINT journal_entries_amount CHECK (amount_minor BETWEEN 1 AND 1000000000000000),
    CONSTRAINT journal_entries_channel CHECK (channel ~ '^[A-Za-z0-9_.-]{1,32}$'),
    CONSTRAINT journal_entries_narrative CHECK (length(narrative) <= 500)
);
COMMENT ON TABLE corebank.journal_entries IS 'The journal: posted, balanced, immutable double entries';
CREATE INDEX journal_entries_by_account ON corebank.journal_entries (ledger_account_id, value_date, id)
    WHERE ledger_account_id IS NOT NULL;
CREATE INDEX journal_entries_by_gl ON corebank.journal_entries (gl_account_id, value_date);

-- GL balances: a posting adds to stripe MyProcPid % 16 of each GL account,
-- so concurrent postings to one control account rarely wait on one row.
CREATE TABLE corebank.gl_balance_stripes (
    gl_account_id uuid NOT NULL REFERENCES corebank.gl_accounts (id),
    stripe        smallint NOT NULL,
    debit_minor   bigint NOT NULL DEFAULT 0,
    credit_minor  bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (gl_account_id, stripe),
    CONSTRAINT gl_balance_stripes_stripe CHECK (stripe BETWEEN 0 AND 15),
    CONSTRAINT gl_balance_stripes_totals CHECK (debit_minor >= 0 AND credit_minor >= 0)
);
COMMENT ON TABLE corebank.gl_balance_stripes IS 'Running debit and credit totals per GL account, striped 16 ways';

-- 16 hash chains; an auditor anchors them by recording this table.
CREATE TABLE corebank.chain_heads (
    stripe     smallint PRIMARY KEY,
    seq        bigint NOT NULL DEFAULT 0,
    hash       bytea NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT chain_heads_stripe CHECK (stripe BETWEEN 0 AND 15),
    CONSTRAINT chain_heads_seq CHECK (seq >= 0),
    CONSTRAINT chain_heads_hash CHECK (length(hash) = 32)
);
COMMENT ON TABLE corebank.chain_heads IS 'Head (last seq and hash) of each of the 16 journal hash chains';
INSERT INTO corebank.chain_heads (stripe, seq, hash)
SELECT s, 0, decode(repeat('00', 32), 'hex') FROM generate_series(0, 15) AS s;

-- A key identifies one request per scope; a repeat with the same request
-- hash gets the stored response, another request under the key is refused.
CREATE TABLE corebank.idempotency_keys (
    scope          text NOT NULL,
    key            text NOT NULL,
    request_hash   bytea NOT NULL,
    transaction_id uuid REFERENCES corebank.transactions (id),
    response       jsonb,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, key),
    CONSTRAINT idempotency_keys_scope CHECK (scope IN ('ledger.post', 'transaction.capture')),
    CONSTRAINT idempotency_keys_key CHECK (length(key) BETWEEN 1 AND 128),
    CONSTRAINT idempotency_keys_hash CHECK (length(request_hash) = 32)
);
COMMENT ON TABLE corebank.idempotency_keys IS 'Idempotency keys of postings and captures with their stored responses';

CREATE TABLE corebank.gl_budgets (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    gl_account_id uuid NOT NULL REFERENCES corebank.gl_accounts (id),
    period        char(7) NOT NULL,
    amount_minor  bigint NOT NULL,
    note          text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    updated_by    uuid,
    UNIQUE (gl_account_id, period),
    CONSTRAINT gl_budgets_period CHECK (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
    CONSTRAINT gl_budgets_amount CHECK (amount_minor BETWEEN 0 AND 1000000000000000),
    CONSTRAINT gl_budgets_note CHECK (length(note) <= 500)
);
COMMENT ON TABLE corebank.gl_budgets IS 'GL budgets: one per GL account per month; no journal effect';

-- API keys of the tier's clients: only the SHA-256 of a key is stored.
CREATE TABLE corebank.api_keys (
    id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    service               text NOT NULL,
    name                  text,
    key_hash              bytea NOT NULL UNIQUE,
    key_prefix            text NOT NULL,
    scopes                text[] NOT NULL,
    caller_id             text,
    rate_limit_per_minute int NOT NULL,
    status                text NOT NULL DEFAULT 'ACTIVE',
    created_at            timestamptz NOT NULL DEFAULT now(),
    created_by            uuid,
    last_used_at          timestamptz,
    revoked_at            timestamptz,
    revoked_by            uuid,
    CONSTRAINT api_keys_service CHECK (service IN ('core', 'events', 'verify')),
    CONSTRAINT api_keys_name CHECK (length(name) BETWEEN 1 AND 100),
    CONSTRAINT api_keys_hash CHECK (length(key_hash) = 32),
    CONSTRAINT api_keys_prefix CHECK (key_prefix ~ '^[A-Za-z0-9_-]{1,16}$'),
    CONSTRAINT api_keys_scopes
        CHECK (cardinality(scopes) BETWEEN 1 AND 20 AND array_position(scopes, NULL) IS NULL),
    CONSTRAINT api_keys_caller CHECK (caller_id ~ '^[A-Za-z0-9._:-]{1,100}$'),
    CONSTRAINT api_keys_rate_limit CHECK (rate_limit_per_minute BETWEEN 1 AND 1000000),
    CONSTRAINT api_keys_status CHECK (status IN ('ACTIVE', 'REVOKED')),
    CONSTRAINT api_keys_revoked CHECK ((status = 'REVOKED') = (revoked_at IS NOT NULL))
);
COMMENT ON TABLE corebank.api_keys IS 'API keys (SHA-256 only) per service, with scopes and a per-minute limit';

-- Per-minute request counters, striped by backend so that concurrent tier
-- connections rarely wait on one row. Unlogged: a crash forgets a minute.
CREATE UNLOGGED TABLE corebank.api_key_rate_counters (
    api_key_id   uuid NOT NULL,
    window_start timestamptz NOT NULL,
    stripe       smallint NOT NULL,
    hits         int NOT NULL,
    PRIMARY KEY (api_key_id, window_start, stripe),
    CONSTRAINT api_key_rate_counters_hits CHECK (hits >= 1)
);
COMMENT ON TABLE corebank.api_key_rate_counters IS 'Per-minute API key request counters (striped)';
CREATE INDEX api_key_rate_counters_window ON corebank.api_key_rate_counters (window_start);

-- trigger functions (C++)
--
-- The ones that query are SECURITY DEFINER: the deferred balance check fires
-- at COMMIT, after the API function returned, as the session's role
-- (corebank_app), which may read no table.

CREATE FUNCTION corebank_internal.gl_account_mirror() RETURNS trigger
    AS 'MODULE_PATHNAME', 'gl_account_mirror' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.gl_account_freeze() RETURNS trigger
    AS 'MODULE_PATHNAME', 'gl_account_freeze' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.journal_immutable() RETURNS trigger
    AS 'MODULE_PATHNAME', 'journal_immutable' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.journal_period_lock() RETURNS trigger
    AS 'MODULE_PATHNAME', 'journal_period_lock' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.journal_balanced() RETURNS trigger
    AS 'MODULE_PATHNAME', 'journal_balanced' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.transaction_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'transaction_guard' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.ledger_writer_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'ledger_writer_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.ledger_account_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'ledger_account_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.parked_change_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'parked_change_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;

-- triggers

CREATE TRIGGER gl_accounts_freeze
    BEFORE UPDATE ON corebank.gl_accounts
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.gl_account_freeze();
CREATE TRIGGER gl_accounts_mirror
    AFTER INSERT OR UPDATE ON corebank.gl_accounts
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.gl_account_mirror();

CREATE TRIGGER journal_entries_immutable
    BEFORE UPDATE OR DELETE ON corebank.journal_entries
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.journal_immutable();
CREATE TRIGGER journal_entries_no_truncate
    BEFORE TRUNCATE ON corebank.journal_entries
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.journal_immutable();
CREATE TRIGGER journal_entries_period_lock
    BEFORE INSERT ON corebank.journal_entries
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.journal_period_lock();
CREATE CONSTRAINT TRIGGER journal_entries_balanced
    AFTER INSERT ON corebank.journal_entries
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.journal_balanced();

CREATE TRIGGER transactions_guard
    BEFORE UPDATE OR DELETE ON corebank.transactions
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.transaction_guard();
CREATE TRIGGER transactions_no_truncate
    BEFORE TRUNCATE ON corebank.transactions
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.transaction_guard();
CREATE TRIGGER transaction_lines_proposed_immutable
    BEFORE UPDATE OR DELETE ON corebank.transaction_lines_proposed
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.journal_immutable();

CREATE TRIGGER ledger_accounts_guard
    BEFORE INSERT OR UPDATE ON corebank.ledger_accounts
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.ledger_account_guard();
CREATE TRIGGER gl_balance_stripes_writer
    BEFORE INSERT OR UPDATE OR DELETE ON corebank.gl_balance_stripes
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.ledger_writer_guard();
CREATE TRIGGER gl_balance_stripes_no_truncate
    BEFORE TRUNCATE ON corebank.gl_balance_stripes
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.ledger_writer_guard();
CREATE TRIGGER chain_heads_writer
    BEFORE INSERT OR UPDATE OR DELETE ON corebank.chain_heads
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.ledger_writer_guard();
CREATE TRIGGER chain_heads_no_truncate
    BEFORE TRUNCATE ON corebank.chain_heads
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.ledger_writer_guard();

CREATE TRIGGER parked_changes_guard
    BEFORE UPDATE OR DELETE ON corebank.parked_changes
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.parked_change_guard();
CREATE TRIGGER parked_changes_no_truncate
    BEFORE TRUNCATE ON corebank.parked_changes
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.parked_change_guard();

-- The standard chart of accounts (USD; the mirror trigger adds each ZWG twin).
INSERT INTO corebank.gl_accounts (code, name, type, currency) VALUES
    ('1000', 'Cash on hand', 'ASSET', 'USD'),
    ('1010', 'Vault cash', 'ASSET', 'USD'),
    ('1100', 'Nostro accounts', 'ASSET', 'USD'),
    ('1200', 'Loans and advances', 'ASSET', 'USD'),
    ('1300', 'Investments', 'ASSET', 'USD'),
    ('1400', 'Settlement - ZIPIT', 'ASSET', 'USD'),
    ('1410', 'Settlement - RTGS', 'ASSET', 'USD'),
    ('1420', 'Settlement - mobile money', 'ASSET', 'USD'),
    ('1900', 'Suspense', 'ASSET', 'USD'),
    ('2000', 'Customer deposits - savings', 'LIABILITY', 'USD'),
    ('2010', 'Customer deposits - current', 'LIABILITY', 'USD'),
    ('2020', 'Fixed deposits', 'LIABILITY', 'USD'),
    ('2100', 'Interest payable', 'LIABILITY', 'USD'),
    ('2900', 'FX position', 'LIABILITY', 'USD'),
    ('3000', 'Share capital', 'EQUITY', 'USD'),
    ('3100', 'Retained earnings', 'EQUITY', 'USD'),
    ('4000', 'Interest income', 'INCOME', 'USD'),
    ('4100', 'Fee and commission income', 'INCOME', 'USD'),
    ('4200', 'FX gains', 'INCOME', 'USD'),
    ('5000', 'Interest expense', 'EXPENSE', 'USD'),
    ('5100', 'Staff costs', 'EXPENSE', 'USD'),
    ('5200', 'Operating expenses', 'EXPENSE', 'USD'),
    ('5300', 'Loan loss provisions', 'EXPENSE', 'USD');

-- private functions: rendering and small rules (PL/pgSQL and SQL)

-- "12.34" from 1234 minor units (exact: numeric arithmetic).
CREATE FUNCTION corebank_internal.amount_text(amount_minor bigint, minor_units smallint DEFAULT 2) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT round(amount_minor::numeric / (10::numeric ^ minor_units), minor_units)::text
$fn$;

-- ISO 8601 in UTC with microseconds, whatever the session's TimeZone.
CREATE FUNCTION corebank_internal.iso_utc(at timestamptz) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$fn$;

-- A pending change past its expiry is LAPSED for every reader, before
-- maintenance (parked_changes_lapse) stores it: an approval that finds it
-- lapsed must raise, which rolls its own write back.
CREATE FUNCTION corebank_internal.change_status(status text, expires_at timestamptz) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT CASE WHEN status = 'PENDING' AND expires_at <= now() THEN 'LAPSED' ELSE status END
$fn$;

-- Balance in the account's normal direction: ASSET and EXPENSE are
-- debit-normal, the others credit-normal.
CREATE FUNCTION corebank_internal.normal_balance(type text, debit_minor bigint, credit_minor bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT CASE WHEN type IN ('ASSET', 'EXPENSE') THEN debit_minor - credit_minor ELSE credit_minor - debit_minor END
$fn$;

-- The engine's today: the override when set, else the date in the business
-- time zone.
CREATE FUNCTION corebank_internal.business_today() RETURNS date
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(c.today_override, (now() AT TIME ZONE c.business_time_zone)::date)
            FROM corebank.platform_config c);
END
$fn$;

-- Members of a request object, refusing wrong types with CBV00.
CREATE FUNCTION corebank_internal.json_text(request jsonb, key text, length_max int) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value jsonb := request -> key;
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(value) <> 'string' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a string', key));
    END IF;
    IF length(value #>> '{}') > length_max THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be at most %s characters', key, length_max));
    END IF;
    RETURN nullif(value #>> '{}', '');
END
$fn$;

CREATE FUNCTION corebank_internal.json_bool(request jsonb, key text) RETURNS bool
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value jsonb := request -> key;
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(value) <> 'boolean' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be true or false', key));
    END IF;
    RETURN value::text::bool;
END
$fn$;

-- An integer member (a JSON integer or a string of digits) within bounds.
CREATE FUNCTION corebank_internal.json_int(request jsonb, key text, minimum bigint, maximum bigint) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value jsonb := request -> key;
    digits text;
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN NULL;
    END IF;
    digits := value #>> '{}';
    IF jsonb_typeof(value) NOT IN ('number', 'string') OR digits !~ '^-?[0-9]{1,18}$'
       OR digits::bigint NOT BETWEEN minimum AND maximum THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be an integer from %s to %s', key, minimum, maximum));
    END IF;
    RETURN digits::bigint;
END
$fn$;

CREATE FUNCTION corebank_internal.json_date(request jsonb, key text) RETURNS date
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    value text := corebank_internal.json_text(request, key, 10);
    parsed date;
BEGIN
    IF value IS NULL THEN
        RETURN NULL;
    END IF;
    IF value !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a date YYYY-MM-DD', key));
    END IF;
    BEGIN
        parsed := to_date(value, 'YYYY-MM-DD');
    EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a date YYYY-MM-DD', key));
    END;
    IF to_char(parsed, 'YYYY-MM-DD') <> value THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a date YYYY-MM-DD', key));
    END IF;
    RETURN parsed;
END
$fn$;

-- A decimal amount ("12.34" or 12.34) or amountMinor to minor units.
CREATE FUNCTION corebank_internal.json_amount_minor(request jsonb) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    minor bigint := corebank_internal.json_int(request, 'amountMinor', 0, 1000000000000000);
    decimal_text text;
BEGIN
    IF minor IS NOT NULL THEN
        RETURN minor;
    END IF;
    IF jsonb_typeof(request -> 'amount') IN ('number', 'string') THEN
        decimal_text := request ->> 'amount';
        IF decimal_text !~ '^[0-9]{1,13}(\.[0-9]{1,2})?$' THEN
            PERFORM corebank_internal.fail('CBV00', 'amount: must be a decimal amount with at most 2 decimals');
        END IF;
        RETURN (decimal_text::numeric * 100)::bigint;
    END IF;
    RETURN NULL;
END
$fn$;

CREATE FUNCTION corebank_internal.require_actor(actor uuid) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF actor IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'actor: is required');
    END IF;
END
$fn$;

-- Rendering. Each returns the response object of one row, or NULL.

CREATE FUNCTION corebank_internal.transaction_json(transaction_id uuid) RETURNS jsonb
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
    SELECT corebank_internal.change_status(p.status, p.expires_at) INTO approval_status
    FROM corebank.parked_changes p WHERE p.id = t.parked_change_id;
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

CREATE FUNCTION corebank_internal.parked_change_json(change_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', p.id, 'operation', p.operation, 'entityType', p.entity_type, 'entityId', p.entity_id,
                'payload', p.payload, 'summary', p.summary, 'makerId', p.maker_id,
                'status', corebank_internal.change_status(p.status, p.expires_at),
                'checkerId', p.checker_id, 'comment', p.comment, 'reason', p.reason, 'result', p.result,
                'createdAt', corebank_internal.iso_utc(p.created_at),
                'expiresAt', corebank_internal.iso_utc(p.expires_at),
                'decidedAt', corebank_internal.iso_utc(p.decided_at))
            FROM corebank.parked_changes p
            WHERE p.id = parked_change_json.change_id);
END
$fn$;

CREATE FUNCTION corebank_internal.gl_account_json(gl_account_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', g.id, 'code', g.code, 'name', g.name, 'type', g.type, 'currency', g.currency,
                'mirrorOfId', g.mirror_of, 'allowManualPosting', g.allow_manual, 'active', g.active,
                'postedTo', g.first_posted_at IS NOT NULL, 'balanceMinor', b.balance_minor,
                'balance', corebank_internal.amount_text(b.balance_minor, c.minor_units),
                'createdAt', corebank_internal.iso_utc(g.created_at),
                'updatedAt', corebank_internal.iso_utc(g.updated_at))
            FROM corebank.gl_accounts g
            JOIN corebank.currencies c ON c.code = g.currency
            CROSS JOIN LATERAL (
                SELECT corebank_internal.normal_balance(g.type, coalesce(sum(s.debit_minor), 0)::bigint,
                                                        coalesce(sum(s.credit_minor), 0)::bigint) AS balance_minor
                FROM corebank.gl_balance_stripes s WHERE s.gl_account_id = g.id) b
            WHERE g.id = gl_account_json.gl_account_id);
END
$fn$;

CREATE FUNCTION corebank_internal.branch_json(branch_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', b.id, 'code', b.code, 'name', b.name, 'city', b.city, 'address', b.address,
                'phone', b.phone, 'active', b.active, 'headOffice', b.is_head_office,
                'createdAt', corebank_internal.iso_utc(b.created_at),
                'updatedAt', corebank_internal.iso_utc(b.updated_at))
            FROM corebank.branches b WHERE b.id = branch_json.branch_id);
END
$fn$;

CREATE FUNCTION corebank_internal.numbering_json(entity_type text) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'entityType', n.entity_type, 'prefix', n.prefix, 'padding', n.padding,
                'nextValue', n.next_value, 'example', corebank_internal.format_number(n.prefix, n.padding, n.next_value),
                'updatedAt', corebank_internal.iso_utc(n.updated_at), 'updatedBy', n.updated_by)
            FROM corebank.numbering_config n WHERE n.entity_type = numbering_json.entity_type);
END
$fn$;

-- prefix || value zero-padded to `padding` digits; never truncated.
CREATE FUNCTION corebank_internal.format_number(prefix text, padding int, value bigint) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT prefix || CASE WHEN length(value::text) >= padding THEN value::text ELSE lpad(value::text, padding, '0') END
$fn$;

CREATE FUNCTION corebank_internal.period_json(period text) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN coalesce(
        (SELECT jsonb_build_object('period', p.period, 'status', p.status,
                                   'closedAt', corebank_internal.iso_utc(p.closed_at), 'closedBy', p.closed_by)
         FROM corebank.accounting_periods p WHERE p.period = period_json.period),
        jsonb_build_object('period', period, 'status', 'OPEN', 'closedAt', NULL, 'closedBy', NULL));
END
$fn$;

CREATE FUNCTION corebank_internal.platform_config_json() RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'businessTimeZone', c.business_time_zone, 'today', corebank_internal.business_today(),
                'todayOverride', c.today_override, 'makerCheckerLapseHours', c.lapse_hours,
                'baseCurrency', c.base_currency,
                'currencies', (SELECT jsonb_agg(jsonb_build_object('code', x.code, 'name', x.name,
                                                                   'minorUnits', x.minor_units) ORDER BY x.code)
                               FROM corebank.currencies x WHERE x.active),
                'updatedAt', corebank_internal.iso_utc(c.updated_at), 'updatedBy', c.updated_by)
            FROM corebank.platform_config c);
END
$fn$;

CREATE FUNCTION corebank_internal.gl_budget_json(budget_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', b.id, 'glAccountId', b.gl_account_id, 'glAccountCode', g.code, 'currency', g.currency,
                'period', b.period, 'amountMinor', b.amount_minor,
                'amount', corebank_internal.amount_text(b.amount_minor, c.minor_units), 'note', b.note,
                'updatedAt', corebank_internal.iso_utc(b.updated_at), 'updatedBy', b.updated_by)
            FROM corebank.gl_budgets b
            JOIN corebank.gl_accounts g ON g.id = b.gl_account_id
            JOIN corebank.currencies c ON c.code = g.currency
            WHERE b.id = gl_budget_json.budget_id);
END
$fn$;

CREATE FUNCTION corebank_internal.api_key_json(api_key_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', k.id, 'service', k.service, 'name', k.name, 'prefix', k.key_prefix,
                'scopes', to_jsonb(k.scopes), 'callerId', k.caller_id,
                'rateLimitPerMinute', k.rate_limit_per_minute, 'status', k.status,
                'createdAt', corebank_internal.iso_utc(k.created_at), 'createdBy', k.created_by,
                'lastUsedAt', corebank_internal.iso_utc(k.last_used_at),
                'revokedAt', corebank_internal.iso_utc(k.revoked_at))
            FROM corebank.api_keys k WHERE k.id = api_key_json.api_key_id);
END
$fn$;

CREATE FUNCTION corebank_internal.ledger_account_json(account_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', a.id, 'accountNumber', a.account_number, 'customerId', a.customer_id, 'name', a.name,
                'glAccountId', a.gl_account_id, 'glAccountCode', g.code, 'currency', a.currency,
                'branchId', a.branch_id, 'status', a.status,
                'allowOverdraftMinor', a.allow_overdraft_minor, 'balanceMinor', a.balance_minor,
                'balance', corebank_internal.amount_text(a.balance_minor, c.minor_units),
                'version', a.version, 'createdAt', corebank_internal.iso_utc(a.created_at),
                'updatedAt', corebank_internal.iso_utc(a.updated_at))
            FROM corebank.ledger_accounts a
            JOIN corebank.gl_accounts g ON g.id = a.gl_account_id
            JOIN corebank.currencies c ON c.code = a.currency
            WHERE a.id = ledger_account_json.account_id);
END
$fn$;

-- A page object: {content, page, size, totalElements, totalPages}.
CREATE FUNCTION corebank_internal.page_json(content jsonb, page int, size int, total bigint) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT jsonb_build_object('content', coalesce(content, '[]'::jsonb), 'page', page, 'size', size,
                              'totalElements', total, 'totalPages', (total + size - 1) / size)
$fn$;

-- API functions: C++ (the ledger and maker-checker rules)

CREATE FUNCTION corebank.ledger_post(request jsonb) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'ledger_post'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.next_number(entity_type text) RETURNS text
    AS 'MODULE_PATHNAME', 'next_number'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.ledger_verify_chain()
    RETURNS TABLE (stripe smallint, seq bigint, transaction_id uuid, problem text)
    AS 'MODULE_PATHNAME', 'ledger_verify_chain'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.parked_change_create(operation text, entity_type text, entity_id text, payload jsonb,
                                              summary text, maker_id uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'parked_change_create'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.parked_change_approve(id uuid, checker_id uuid, comment text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'parked_change_approve'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.parked_change_reject(id uuid, checker_id uuid, reason text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'parked_change_reject'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.parked_changes_lapse() RETURNS int
    AS 'MODULE_PATHNAME', 'parked_changes_lapse'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.core_approval_approve(id uuid, actor uuid, comment text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'parked_change_approve'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.core_approval_reject(id uuid, actor uuid, reason text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'parked_change_reject'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.core_transaction_capture(request jsonb, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'core_transaction_capture'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.core_transaction_post(id uuid, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'core_transaction_post'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.core_transaction_abandon(id uuid, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'core_transaction_abandon'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

-- API functions: PL/pgSQL

CREATE FUNCTION corebank.business_today() RETURNS date
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.business_today();
END
$fn$;

-- Opens a customer (ledger) account on a control GL account. Internal for
-- the ledger tests; issue 4 puts products and lifecycle around it.
-- Request: {accountNumber?, customerId?, name?, glAccountId? | glAccountCode?,
-- currency? (default USD), branchId? | branchCode? (default head office),
-- allowOverdraftMinor? (default 0)}.
CREATE FUNCTION corebank.ledger_account_open(request jsonb) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    account_number text := corebank_internal.json_text(request, 'accountNumber', 34);
    customer_text text := corebank_internal.json_text(request, 'customerId', 36);
    account_name text := corebank_internal.json_text(request, 'name', 200);
    gl_text text := corebank_internal.json_text(request, 'glAccountId', 36);
    gl_code text := corebank_internal.json_text(request, 'glAccountCode', 20);
    account_currency text := coalesce(corebank_internal.json_text(request, 'currency', 3), 'USD');
    branch_text text := corebank_internal.json_text(request, 'branchId', 36);
    branch_code text := corebank_internal.json_text(request, 'branchCode', 10);
    overdraft bigint := coalesce(corebank_internal.json_int(request, 'allowOverdraftMinor', 0, 1000000000000000), 0);
    uuid_pattern CONSTANT text := '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
    gl corebank.gl_accounts;
    branch uuid;
    new_id uuid;
BEGIN
    IF request IS NULL OR jsonb_typeof(request) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'request: must be a JSON object');
    END IF;
    IF customer_text !~ uuid_pattern THEN
        PERFORM corebank_internal.fail('CBV00', 'customerId: must be a UUID');
    END IF;
    IF gl_text !~ uuid_pattern THEN
        PERFORM corebank_internal.fail('CBV00', 'glAccountId: must be a UUID');
    END IF;
    IF branch_text !~ uuid_pattern THEN
        PERFORM corebank_internal.fail('CBV00', 'branchId: must be a UUID');
    END IF;
    IF account_number !~ '^[A-Za-z0-9-]{1,34}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'accountNumber: must be 1 to 34 of A-Z a-z 0-9 -');
    END IF;
    IF gl_text IS NOT NULL THEN
        SELECT * INTO gl FROM corebank.gl_accounts g WHERE g.id = gl_text::uuid;
    ELSIF gl_code IS NOT NULL THEN
        SELECT * INTO gl FROM corebank.gl_accounts g WHERE g.code = gl_code AND g.currency = account_currency;
    ELSE
        PERFORM corebank_internal.fail('CBV00', 'glAccountId: is required (or glAccountCode)');
    END IF;
    IF gl.id IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'GL account not found');
    END IF;
    IF NOT gl.active THEN
        PERFORM corebank_internal.fail('CB422', format('GL account %s (%s) is inactive', gl.code, gl.currency));
    END IF;
    IF branch_text IS NOT NULL THEN
        SELECT b.id INTO branch FROM corebank.branches b WHERE b.id = branch_text::uuid AND b.active;
    ELSIF branch_code IS NOT NULL THEN
        SELECT b.id INTO branch FROM corebank.branches b WHERE b.code = branch_code AND b.active;
    ELSE
        SELECT b.id INTO branch FROM corebank.branches b WHERE b.is_head_office;
    END IF;
    IF branch IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Branch not found or inactive');
    END IF;

    INSERT INTO corebank.ledger_accounts AS a (account_number, customer_id, name, gl_account_id, currency,
                                               branch_id, allow_overdraft_minor)
    VALUES (coalesce(account_number, corebank.next_number('ACCOUNT')), customer_text::uuid, account_name, gl.id,
            gl.currency, branch, overdraft)
    ON CONFLICT DO NOTHING
    RETURNING a.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'An account with this account number already exists');
    END IF;
    RETURN corebank_internal.ledger_account_json(new_id);
END
$fn$;

-- Health of the balances; no rows = healthy:
--   ledger_account   a customer balance differs from its entries (credits - debits)
--   gl_debits/credits a GL account's stripes differ from its entries
--   trial_balance    debits and credits of a currency differ
--   unchained        a posted transaction has no entries, or entries belong
--                    to a transaction that is not posted
CREATE FUNCTION corebank.ledger_check_balances()
    RETURNS TABLE (problem text, subject text, currency text, expected_minor bigint, actual_minor bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN QUERY
    SELECT 'ledger_account'::text, a.account_number, a.currency::text, coalesce(e.net, 0)::bigint, a.balance_minor
    FROM corebank.ledger_accounts a
    LEFT JOIN (SELECT x.ledger_account_id,
                      sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE -x.amount_minor END) AS net
               FROM corebank.journal_entries x WHERE x.ledger_account_id IS NOT NULL
               GROUP BY x.ledger_account_id) e ON e.ledger_account_id = a.id
    WHERE a.balance_minor <> coalesce(e.net, 0);

    RETURN QUERY
    WITH entries AS (
        SELECT x.gl_account_id,
               sum(CASE WHEN x.side = 'D' THEN x.amount_minor ELSE 0 END) AS debit,
               sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE 0 END) AS credit
        FROM corebank.journal_entries x GROUP BY x.gl_account_id
    ), stripes AS (
        SELECT s.gl_account_id, sum(s.debit_minor) AS debit, sum(s.credit_minor) AS credit
        FROM corebank.gl_balance_stripes s GROUP BY s.gl_account_id
    ), both_sides AS (
        SELECT g.code || ' ' || g.currency AS subject, g.currency::text AS currency,
               coalesce(e.debit, 0)::bigint AS entries_debit, coalesce(s.debit, 0)::bigint AS stripes_debit,
               coalesce(e.credit, 0)::bigint AS entries_credit, coalesce(s.credit, 0)::bigint AS stripes_credit
        FROM corebank.gl_accounts g
        LEFT JOIN entries e ON e.gl_account_id = g.id
        LEFT JOIN stripes s ON s.gl_account_id = g.id
    )
    SELECT 'gl_debits'::text, b.subject, b.currency, b.entries_debit, b.stripes_debit
    FROM both_sides b WHERE b.entries_debit <> b.stripes_debit
    UNION ALL
    SELECT 'gl_credits'::text, b.subject, b.currency, b.entries_credit, b.stripes_credit
    FROM both_sides b WHERE b.entries_credit <> b.stripes_credit;

    RETURN QUERY
    SELECT 'trial_balance'::text, 'all GL accounts'::text, x.currency::text,
           sum(CASE WHEN x.side = 'D' THEN x.amount_minor ELSE 0 END)::bigint,
           sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE 0 END)::bigint
    FROM corebank.journal_entries x
    GROUP BY x.currency
    HAVING sum(CASE WHEN x.side = 'D' THEN x.amount_minor ELSE -x.amount_minor END) <> 0;

    RETURN QUERY
    SELECT 'unchained'::text, t.id::text, NULL::text, NULL::bigint, NULL::bigint
    FROM corebank.transactions t
    WHERE t.status IN ('POSTED', 'REVERSED')
      AND NOT EXISTS (SELECT FROM corebank.journal_entries x WHERE x.transaction_id = t.id)
    UNION ALL
    SELECT DISTINCT 'unchained'::text, x.transaction_id::text, NULL::text, NULL::bigint, NULL::bigint
    FROM corebank.journal_entries x
    JOIN corebank.transactions t ON t.id = x.transaction_id
    WHERE t.status NOT IN ('POSTED', 'REVERSED');
END
$fn$;

-- Trial balance as of a value date: each GL account's net in its debit or
-- credit column; per currency the columns sum to the same total.
CREATE FUNCTION corebank.trial_balance_as_of(as_of date)
    RETURNS TABLE (gl_account_id uuid, code text, name text, type text, currency text,
                   debit_minor bigint, credit_minor bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF as_of IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'as_of: is required');
    END IF;
    RETURN QUERY
    SELECT g.id, g.code, g.name, g.type, g.currency::text,
           greatest(s.net, 0)::bigint, greatest(-s.net, 0)::bigint
    FROM corebank.gl_accounts g
    JOIN (SELECT x.gl_account_id,
                 sum(CASE WHEN x.side = 'D' THEN x.amount_minor ELSE -x.amount_minor END) AS net
          FROM corebank.journal_entries x
          WHERE x.value_date <= as_of
          GROUP BY x.gl_account_id) s ON s.gl_account_id = g.id
    ORDER BY g.currency, g.code;
END
$fn$;

-- GL balances as of a value date: totals and the balance in the account's
-- normal direction, for every GL account (zero when never posted).
CREATE FUNCTION corebank.gl_balances_as_of(as_of date)
    RETURNS TABLE (gl_account_id uuid, code text, name text, type text, currency text,
                   debit_minor bigint, credit_minor bigint, balance_minor bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF as_of IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'as_of: is required');
    END IF;
    RETURN QUERY
    SELECT g.id, g.code, g.name, g.type, g.currency::text,
           coalesce(s.debit, 0)::bigint, coalesce(s.credit, 0)::bigint,
           corebank_internal.normal_balance(g.type, coalesce(s.debit, 0)::bigint, coalesce(s.credit, 0)::bigint)
    FROM corebank.gl_accounts g
    LEFT JOIN (SELECT x.gl_account_id,
                      sum(CASE WHEN x.side = 'D' THEN x.amount_minor ELSE 0 END) AS debit,
                      sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE 0 END) AS credit
               FROM corebank.journal_entries x
               WHERE x.value_date <= as_of
               GROUP BY x.gl_account_id) s ON s.gl_account_id = g.id
    ORDER BY g.currency, g.code;
END
$fn$;

-- A customer account's entries with value dates in [from_date, to_date],
-- with the running balance (credits - debits) from the opening balance of
-- everything before from_date. At most 366 days per call.
CREATE FUNCTION corebank.account_statement(account uuid, from_date date, to_date date)
    RETURNS TABLE (entry_id bigint, transaction_id uuid, reference text, type text, value_date date,
                   posted_at timestamptz, side text, amount_minor bigint, narrative text,
                   opening_balance_minor bigint, balance_minor bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    opening bigint;
BEGIN
    IF account IS NULL OR from_date IS NULL OR to_date IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'account, from, to: are required');
    END IF;
    IF to_date < from_date OR to_date - from_date > 366 THEN
        PERFORM corebank_internal.fail('CBV00', 'to: must be on or after from and at most 366 days later');
    END IF;
    IF NOT EXISTS (SELECT FROM corebank.ledger_accounts a WHERE a.id = account) THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    SELECT coalesce(sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE -x.amount_minor END), 0)::bigint
    INTO opening
    FROM corebank.journal_entries x
    WHERE x.ledger_account_id = account AND x.value_date < from_date;

    RETURN QUERY
    SELECT x.id, x.transaction_id, t.reference, t.type, x.value_date, t.posted_at,
           CASE x.side WHEN 'D' THEN 'DEBIT' ELSE 'CREDIT' END, x.amount_minor, x.narrative, opening,
           (opening + sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE -x.amount_minor END)
                          OVER (ORDER BY x.value_date, x.id))::bigint
    FROM corebank.journal_entries x
    JOIN corebank.transactions t ON t.id = x.transaction_id
    WHERE x.ledger_account_id = account AND x.value_date BETWEEN from_date AND to_date
    ORDER BY x.value_date, x.id;
END
$fn$;

-- Current balances from the stripes (cheap), for the reporting roles.
CREATE VIEW corebank.gl_balances AS
SELECT g.id AS gl_account_id, g.code, g.name, g.type, g.currency,
       coalesce(sum(s.debit_minor), 0)::bigint AS debit_minor,
       coalesce(sum(s.credit_minor), 0)::bigint AS credit_minor,
       corebank_internal.normal_balance(g.type, coalesce(sum(s.debit_minor), 0)::bigint,
                                        coalesce(sum(s.credit_minor), 0)::bigint) AS balance_minor
FROM corebank.gl_accounts g
LEFT JOIN corebank.gl_balance_stripes s ON s.gl_account_id = g.id
GROUP BY g.id;
COMMENT ON VIEW corebank.gl_balances IS 'Current GL balances (sum of stripes), in the normal direction';

-- transactions (reads)

CREATE FUNCTION corebank.core_transaction_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    rendered jsonb;
BEGIN
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    rendered := corebank_internal.transaction_json(id);
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Transaction not found');
    END IF;
    RETURN rendered;
END
$fn$;

-- Filter: from, to (value dates), type, status, state (same values as
-- status), reference (exact), glAccountCode, page (0-based), size (1..200,
-- default 25). Newest first (created_at desc, id).
CREATE FUNCTION corebank.core_transaction_search(filter jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    f jsonb := coalesce(filter, '{}'::jsonb);
    from_date date;
    to_date date;
    type_filter text;
    status_filter text;
    state_filter text;
    reference_filter text;
    gl_code text;
    page_number int;
    page_size int;
    total bigint;
    content jsonb;
BEGIN
    IF jsonb_typeof(f) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'filter: must be a JSON object');
    END IF;
    from_date := corebank_internal.json_date(f, 'from');
    to_date := corebank_internal.json_date(f, 'to');
    type_filter := upper(corebank_internal.json_text(f, 'type', 32));
    status_filter := upper(corebank_internal.json_text(f, 'status', 16));
    state_filter := upper(corebank_internal.json_text(f, 'state', 16));
    reference_filter := corebank_internal.json_text(f, 'reference', 80);
    gl_code := corebank_internal.json_text(f, 'glAccountCode', 20);
    page_number := coalesce(corebank_internal.json_int(f, 'page', 0, 1000000), 0);
    page_size := coalesce(corebank_internal.json_int(f, 'size', 1, 200), 25);
    IF type_filter NOT IN ('DEPOSIT', 'WITHDRAWAL', 'TRANSFER', 'INTEREST_ACCRUAL', 'FEE', 'LOAN_DISBURSEMENT',
                           'LOAN_REPAYMENT', 'ADJUSTMENT', 'ZIPIT_SEND', 'ZIPIT_RECEIVE', 'RTGS_SEND',
                           'RTGS_RECEIVE', 'MOBILE_MONEY_SEND', 'MOBILE_MONEY_RECEIVE', 'SALARY_PAYMENT',
                           'BULK_PAYMENT', 'BILL_PAYMENT', 'PAYMENT_REVERSAL', 'INVESTMENT_PURCHASE',
                           'INVESTMENT_MATURITY', 'INVESTMENT_SALE', 'INVESTMENT_INTEREST') THEN
        PERFORM corebank_internal.fail('CBV00', 'type: is not a known transaction type');
    END IF;
    IF status_filter NOT IN ('PENDING', 'POSTED', 'REVERSED', 'CANCELLED')
       OR state_filter NOT IN ('PENDING', 'POSTED', 'REVERSED', 'CANCELLED') THEN
        PERFORM corebank_internal.fail('CBV00', 'status: must be PENDING, POSTED, REVERSED or CANCELLED');
    END IF;
    IF status_filter IS NOT NULL AND state_filter IS NOT NULL AND status_filter <> state_filter THEN
        PERFORM corebank_internal.fail('CBV00', 'state: must equal status when both are given');
    END IF;
    status_filter := coalesce(status_filter, state_filter);
    IF from_date > to_date THEN
        PERFORM corebank_internal.fail('CBV00', 'to: must be on or after from');
    END IF;

    -- One pass: the hits are materialised once for the count and the page.
    WITH hits AS MATERIALIZED (
        SELECT t.id, t.created_at
        FROM corebank.transactions t
        WHERE (from_date IS NULL OR t.value_date >= from_date)
          AND (to_date IS NULL OR t.value_date <= to_date)
          AND (type_filter IS NULL OR t.type = type_filter)
          AND (status_filter IS NULL OR t.status = status_filter)
          AND (reference_filter IS NULL OR t.reference = reference_filter)
          AND (gl_code IS NULL
               OR EXISTS (SELECT FROM corebank.journal_entries e
                          JOIN corebank.gl_accounts g ON g.id = e.gl_account_id
                          WHERE e.transaction_id = t.id AND g.code = gl_code)
               OR EXISTS (SELECT FROM corebank.transaction_lines_proposed p
                          JOIN corebank.gl_accounts g ON g.id = p.gl_account_id
                          WHERE p.transaction_id = t.id AND g.code = gl_code))
    ), page AS (
        SELECT h.id, h.created_at FROM hits h
        ORDER BY h.created_at DESC, h.id
        LIMIT page_size OFFSET page_number::bigint * page_size
    )
    SELECT (SELECT count(*) FROM hits),
           (SELECT jsonb_agg(corebank_internal.transaction_json(p.id) ORDER BY p.created_at DESC, p.id) FROM page p)
    INTO total, content;
    RETURN corebank_internal.page_json(content, page_number, page_size, total);
END
$fn$;

-- maker-checker requests and approvals (the rules are in the C++ dispatch
-- table behind parked_change_create / _approve / _reject)

-- Parks the reversal of a POSTED transaction; approval posts the mirror
-- entries with value date = business today and marks the original REVERSED.
CREATE FUNCTION corebank.core_transaction_reverse_request(id uuid, reason text, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    summary text;
BEGIN
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    PERFORM corebank_internal.require_actor(actor);
    IF length(reason) > 1000 THEN
        PERFORM corebank_internal.fail('CBV00', 'reason: must be at most 1000 characters');
    END IF;
    SELECT format('Reverse %s transaction %s', t.type, t.reference) INTO summary
    FROM corebank.transactions t WHERE t.id = id;
    RETURN corebank.parked_change_create('transaction.reverse', 'transaction', id::text,
                                         jsonb_build_object('reason', nullif(btrim(reason), '')),
                                         coalesce(summary, 'Reverse a transaction'), actor);
END
$fn$;

CREATE FUNCTION corebank.core_approvals_list(status text, page int, size int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    wanted text := upper(nullif(btrim(status), ''));
    page_number int := coalesce(page, 0);
    page_size int := coalesce(size, 25);
    total bigint;
    content jsonb;
BEGIN
    IF wanted NOT IN ('PENDING', 'APPROVED', 'REJECTED', 'LAPSED') THEN
        PERFORM corebank_internal.fail('CBV00', 'status: must be PENDING, APPROVED, REJECTED or LAPSED');
    END IF;
    IF page_number NOT BETWEEN 0 AND 1000000 THEN
        PERFORM corebank_internal.fail('CBV00', 'page: must be from 0 to 1000000');
    END IF;
    IF page_size NOT BETWEEN 1 AND 200 THEN
        PERFORM corebank_internal.fail('CBV00', 'size: must be from 1 to 200');
    END IF;
    WITH hits AS MATERIALIZED (
        SELECT p.id, p.created_at
        FROM corebank.parked_changes p
        WHERE wanted IS NULL OR corebank_internal.change_status(p.status, p.expires_at) = wanted
    ), chosen AS (
        SELECT h.id, h.created_at FROM hits h
        ORDER BY h.created_at DESC, h.id
        LIMIT page_size OFFSET page_number::bigint * page_size
    )
    SELECT (SELECT count(*) FROM hits),
           (SELECT jsonb_agg(corebank_internal.parked_change_json(c.id) ORDER BY c.created_at DESC, c.id) FROM chosen c)
    INTO total, content;
    RETURN corebank_internal.page_json(content, page_number, page_size, total);
END
$fn$;

CREATE FUNCTION corebank.core_approval_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rendered jsonb;
BEGIN
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    rendered := corebank_internal.parked_change_json(id);
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Approval not found');
    END IF;
    RETURN rendered;
END
$fn$;

-- periods

-- Every period that has a row (closed, reopened or posted into) and the
-- current business period, newest first.
CREATE FUNCTION corebank.core_periods_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.period_json(x.period) ORDER BY x.period DESC), '[]'::jsonb)
            FROM (SELECT p.period::text AS period FROM corebank.accounting_periods p
                  UNION
                  SELECT to_char(corebank_internal.business_today(), 'YYYY-MM')) x);
END
$fn$;

CREATE FUNCTION corebank.core_period_close_request(period text, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF period IS NULL OR period !~ '^[0-9]{4}-(0[1-9]|1[0-2])$' THEN
        PERFORM corebank_internal.fail('CBV00', 'period: must be YYYY-MM');
    END IF;
    RETURN corebank.parked_change_create('period.close', 'period', period, '{}'::jsonb,
                                         format('Close accounting period %s', period), actor);
END
$fn$;

CREATE FUNCTION corebank.core_period_reopen_request(period text, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF period IS NULL OR period !~ '^[0-9]{4}-(0[1-9]|1[0-2])$' THEN
        PERFORM corebank_internal.fail('CBV00', 'period: must be YYYY-MM');
    END IF;
    RETURN corebank.parked_change_create('period.reopen', 'period', period, '{}'::jsonb,
                                         format('Reopen accounting period %s', period), actor);
END
$fn$;

-- platform configuration, branch scoping, numbering

CREATE FUNCTION corebank.core_platform_config_get() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.platform_config_json();
END
$fn$;

-- UpdatePlatformConfigRequest: {businessTimeZone?, todayOverride? (null
-- clears it), makerCheckerLapseHours?, baseCurrency? (must stay the same)}.
-- Omitted members keep their value.
CREATE FUNCTION corebank.core_platform_config_update(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    zone text;
    lapse int;
    base text;
    current corebank.platform_config;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF request IS NULL OR jsonb_typeof(request) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'request: must be a JSON object');
    END IF;
    zone := corebank_internal.json_text(request, 'businessTimeZone', 64);
    lapse := corebank_internal.json_int(request, 'makerCheckerLapseHours', 1, 8760);
    base := corebank_internal.json_text(request, 'baseCurrency', 3);
    IF zone IS NOT NULL AND NOT EXISTS (SELECT FROM pg_catalog.pg_timezone_names z WHERE z.name = zone) THEN
        PERFORM corebank_internal.fail('CBV00', 'businessTimeZone: must be an IANA time zone name such as Africa/Harare');
    END IF;
    SELECT * INTO current FROM corebank.platform_config FOR UPDATE;
    IF base IS NOT NULL AND base <> current.base_currency THEN
        PERFORM corebank_internal.fail('CB422', 'baseCurrency cannot be changed');
    END IF;
    UPDATE corebank.platform_config c
    SET business_time_zone = coalesce(zone, c.business_time_zone),
        today_override = CASE WHEN request ? 'todayOverride' THEN corebank_internal.json_date(request, 'todayOverride')
                              ELSE c.today_override END,
        lapse_hours = coalesce(lapse, c.lapse_hours),
        updated_at = now(), updated_by = actor;
    RETURN corebank_internal.platform_config_json();
END
$fn$;

-- BranchScopingResponse: {enabled, updatedAt}.
CREATE FUNCTION corebank.core_branch_scoping_get() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object('enabled', c.branch_scoping, 'updatedAt', corebank_internal.iso_utc(c.updated_at))
            FROM corebank.platform_config c);
END
$fn$;

-- UpdateBranchScopingRequest {enabled}: parked (branch_scoping.update).
CREATE FUNCTION corebank.core_branch_scoping_update_request(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    enabled bool;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF request IS NULL OR jsonb_typeof(request) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'request: must be a JSON object');
    END IF;
    enabled := corebank_internal.json_bool(request, 'enabled');
    IF enabled IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'enabled: is required');
    END IF;
    RETURN corebank.parked_change_create('branch_scoping.update', 'platform', 'branch_scoping',
                                         jsonb_build_object('enabled', enabled),
                                         CASE WHEN enabled THEN 'Turn branch scoping on' ELSE 'Turn branch scoping off' END,
                                         actor);
END
$fn$;

CREATE FUNCTION corebank.core_numbering_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_agg(corebank_internal.numbering_json(n.entity_type) ORDER BY n.entity_type)
            FROM corebank.numbering_config n);
END
$fn$;

-- UpdateNumberingConfigRequest: {prefix?, padding?, nextValue?}; nextValue
-- only moves forward, so no number is ever issued twice.
CREATE FUNCTION corebank.core_numbering_update(entity_type text, request jsonb, actor uuid) RETURNS jsonb
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
    IF new_next < current.next_value THEN
        PERFORM corebank_internal.fail('CB422', format('nextValue may only move forward (it is %s)', current.next_value));
    END IF;
    UPDATE corebank.numbering_config n
    SET prefix = coalesce(new_prefix, n.prefix), padding = coalesce(new_padding, n.padding),
        next_value = coalesce(new_next, n.next_value), updated_at = now(), updated_by = actor
    WHERE n.entity_type = kind;
    RETURN corebank_internal.numbering_json(kind);
END
$fn$;

-- GL accounts and budgets

-- Filter: {type?, currency?, active?, code?}; ordered by code, currency; at
-- most 1000 accounts (a chart of accounts is far smaller).
CREATE FUNCTION corebank.core_gl_accounts_list(filter jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    f jsonb := coalesce(filter, '{}'::jsonb);
    type_filter text;
    currency_filter text;
    active_filter bool;
    code_filter text;
BEGIN
    IF jsonb_typeof(f) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'filter: must be a JSON object');
    END IF;
    type_filter := upper(corebank_internal.json_text(f, 'type', 16));
    currency_filter := upper(corebank_internal.json_text(f, 'currency', 3));
    active_filter := corebank_internal.json_bool(f, 'active');
    code_filter := corebank_internal.json_text(f, 'code', 20);
    IF type_filter NOT IN ('ASSET', 'LIABILITY', 'EQUITY', 'INCOME', 'EXPENSE') THEN
        PERFORM corebank_internal.fail('CBV00', 'type: must be ASSET, LIABILITY, EQUITY, INCOME or EXPENSE');
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.gl_account_json(g.id) ORDER BY g.code, g.currency), '[]'::jsonb)
            FROM (SELECT x.id, x.code, x.currency FROM corebank.gl_accounts x
                  WHERE (type_filter IS NULL OR x.type = type_filter)
                    AND (currency_filter IS NULL OR x.currency = currency_filter)
                    AND (active_filter IS NULL OR x.active = active_filter)
                    AND (code_filter IS NULL OR x.code = code_filter)
                  ORDER BY x.code, x.currency
                  LIMIT 1000) g);
END
$fn$;

CREATE FUNCTION corebank.core_gl_account_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rendered jsonb;
BEGIN
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    rendered := corebank_internal.gl_account_json(id);
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'GL account not found');
    END IF;
    RETURN rendered;
END
$fn$;

-- {code, name, type, currency? (USD), allowManualPosting? (true), active? (true)}.
-- A USD account gets its ZWG mirror from the trigger in the same statement.
CREATE FUNCTION corebank.core_gl_account_create(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    new_code text;
    new_name text;
    new_type text;
    new_currency text;
    manual bool;
    is_active bool;
    new_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF request IS NULL OR jsonb_typeof(request) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'request: must be a JSON object');
    END IF;
    new_code := corebank_internal.json_text(request, 'code', 20);
    new_name := btrim(corebank_internal.json_text(request, 'name', 200));
    new_type := upper(corebank_internal.json_text(request, 'type', 16));
    new_currency := upper(coalesce(corebank_internal.json_text(request, 'currency', 3), 'USD'));
    manual := coalesce(corebank_internal.json_bool(request, 'allowManualPosting'), true);
    is_active := coalesce(corebank_internal.json_bool(request, 'active'), true);
    IF new_code IS NULL OR new_code !~ '^[A-Za-z0-9._-]{1,20}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'code: must be 1 to 20 of A-Z a-z 0-9 . _ -');
    END IF;
    IF new_name IS NULL OR new_name = '' THEN
        PERFORM corebank_internal.fail('CBV00', 'name: is required');
    END IF;
    IF new_type IS NULL OR new_type NOT IN ('ASSET', 'LIABILITY', 'EQUITY', 'INCOME', 'EXPENSE') THEN
        PERFORM corebank_internal.fail('CBV00', 'type: must be ASSET, LIABILITY, EQUITY, INCOME or EXPENSE');
    END IF;
    IF NOT EXISTS (SELECT FROM corebank.currencies c WHERE c.code = new_currency AND c.active) THEN
        PERFORM corebank_internal.fail('CBV00', 'currency: must be USD or ZWG');
    END IF;
    INSERT INTO corebank.gl_accounts AS g (code, name, type, currency, allow_manual, active, created_by, updated_by)
    VALUES (new_code, new_name, new_type, new_currency, manual, is_active, actor, actor)
    ON CONFLICT DO NOTHING
    RETURNING g.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', format('A GL account with code %s already exists in %s', new_code, new_currency));
    END IF;
    RETURN corebank_internal.gl_account_json(new_id);
END
$fn$;

-- UpdateGlAccountRequest: {code?, name?, type?, allowManualPosting?, active?}.
-- Code and type are frozen once posted to (trigger, CB422); a ZWG mirror
-- takes code, name, type and active from its USD account.
CREATE FUNCTION corebank.core_gl_account_update(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    g corebank.gl_accounts;
    new_code text;
    new_name text;
    new_type text;
    manual bool;
    is_active bool;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    IF request IS NULL OR jsonb_typeof(request) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'request: must be a JSON object');
    END IF;
    new_code := corebank_internal.json_text(request, 'code', 20);
    new_name := btrim(corebank_internal.json_text(request, 'name', 200));
    new_type := upper(corebank_internal.json_text(request, 'type', 16));
    manual := corebank_internal.json_bool(request, 'allowManualPosting');
    is_active := corebank_internal.json_bool(request, 'active');
    IF new_code !~ '^[A-Za-z0-9._-]{1,20}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'code: must be 1 to 20 of A-Z a-z 0-9 . _ -');
    END IF;
    IF new_name = '' THEN
        PERFORM corebank_internal.fail('CBV00', 'name: must not be blank');
    END IF;
    IF new_type NOT IN ('ASSET', 'LIABILITY', 'EQUITY', 'INCOME', 'EXPENSE') THEN
        PERFORM corebank_internal.fail('CBV00', 'type: must be ASSET, LIABILITY, EQUITY, INCOME or EXPENSE');
    END IF;
    SELECT * INTO g FROM corebank.gl_accounts x WHERE x.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'GL account not found');
    END IF;
    IF g.mirror_of IS NOT NULL
       AND (new_code IS DISTINCT FROM NULL AND new_code <> g.code
            OR new_name IS DISTINCT FROM NULL AND new_name <> g.name
            OR new_type IS DISTINCT FROM NULL AND new_type <> g.type
            OR is_active IS DISTINCT FROM NULL AND is_active <> g.active) THEN
        PERFORM corebank_internal.fail('CB422', 'A ZWG mirror follows its USD account; change the USD account');
    END IF;
    IF g.first_posted_at IS NOT NULL
       AND (new_code IS DISTINCT FROM NULL AND new_code <> g.code OR new_type IS DISTINCT FROM NULL AND new_type <> g.type) THEN
        PERFORM corebank_internal.fail('CB422', 'GL account code and type are frozen once posted to');
    END IF;
    BEGIN
        UPDATE corebank.gl_accounts x
        SET code = coalesce(new_code, x.code), name = coalesce(new_name, x.name), type = coalesce(new_type, x.type),
            allow_manual = coalesce(manual, x.allow_manual), active = coalesce(is_active, x.active),
            updated_at = now(), updated_by = actor
        WHERE x.id = id;
    EXCEPTION WHEN unique_violation THEN
        PERFORM corebank_internal.fail('CB409', format('A GL account with code %s already exists in %s', new_code, g.currency));
    END;
    RETURN corebank_internal.gl_account_json(id);
END
$fn$;

CREATE FUNCTION corebank.core_gl_budgets_list(period text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF period IS NULL OR period !~ '^[0-9]{4}-(0[1-9]|1[0-2])$' THEN
        PERFORM corebank_internal.fail('CBV00', 'period: must be YYYY-MM');
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.gl_budget_json(b.id) ORDER BY g.code, g.currency), '[]'::jsonb)
            FROM corebank.gl_budgets b JOIN corebank.gl_accounts g ON g.id = b.gl_account_id
            WHERE b.period = period);
END
$fn$;

-- UpsertGlBudgetRequest: {glAccountId | glAccountCode (+ currency, USD by
-- default), period YYYY-MM, amountMinor | amount, note?}. Writes no journal
-- entry.
CREATE FUNCTION corebank.core_gl_budget_upsert(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    gl_text text;
    gl_code text;
    gl_currency text;
    budget_period text;
    amount bigint;
    budget_note text;
    gl uuid;
    budget_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF request IS NULL OR jsonb_typeof(request) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'request: must be a JSON object');
    END IF;
    gl_text := corebank_internal.json_text(request, 'glAccountId', 36);
    gl_code := corebank_internal.json_text(request, 'glAccountCode', 20);
    gl_currency := upper(coalesce(corebank_internal.json_text(request, 'currency', 3), 'USD'));
    budget_period := corebank_internal.json_text(request, 'period', 7);
    amount := corebank_internal.json_amount_minor(request);
    budget_note := corebank_internal.json_text(request, 'note', 500);
    IF budget_period IS NULL OR budget_period !~ '^[0-9]{4}-(0[1-9]|1[0-2])$' THEN
        PERFORM corebank_internal.fail('CBV00', 'period: must be YYYY-MM');
    END IF;
    IF amount IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'amountMinor: is required (or amount)');
    END IF;
    IF gl_text IS NOT NULL THEN
        IF gl_text !~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN
            PERFORM corebank_internal.fail('CBV00', 'glAccountId: must be a UUID');
        END IF;
        SELECT g.id INTO gl FROM corebank.gl_accounts g WHERE g.id = gl_text::uuid;
    ELSIF gl_code IS NOT NULL THEN
        SELECT g.id INTO gl FROM corebank.gl_accounts g WHERE g.code = gl_code AND g.currency = gl_currency;
    ELSE
        PERFORM corebank_internal.fail('CBV00', 'glAccountId: is required (or glAccountCode)');
    END IF;
    IF gl IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'GL account not found');
    END IF;
    INSERT INTO corebank.gl_budgets AS b (gl_account_id, period, amount_minor, note, updated_by)
    VALUES (gl, budget_period, amount, budget_note, actor)
    ON CONFLICT (gl_account_id, period)
    DO UPDATE SET amount_minor = excluded.amount_minor, note = excluded.note, updated_at = now(),
                  updated_by = excluded.updated_by
    RETURNING b.id INTO budget_id;
    RETURN corebank_internal.gl_budget_json(budget_id);
END
$fn$;

-- branches

CREATE FUNCTION corebank.core_branches_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.branch_json(b.id) ORDER BY NOT b.is_head_office, b.code), '[]'::jsonb)
            FROM corebank.branches b);
END
$fn$;

CREATE FUNCTION corebank.core_branch_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rendered jsonb;
BEGIN
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    rendered := corebank_internal.branch_json(id);
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Branch not found');
    END IF;
    RETURN rendered;
END
$fn$;

-- {code, name, city?, address?, phone?}: branches beyond the six seeded.
CREATE FUNCTION corebank.core_branch_create(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    new_code text;
    new_name text;
    new_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF request IS NULL OR jsonb_typeof(request) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'request: must be a JSON object');
    END IF;
    new_code := upper(corebank_internal.json_text(request, 'code', 10));
    new_name := btrim(corebank_internal.json_text(request, 'name', 100));
    IF new_code IS NULL OR new_code !~ '^[A-Z0-9]{2,10}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'code: must be 2 to 10 of A-Z 0-9');
    END IF;
    IF new_name IS NULL OR new_name = '' THEN
        PERFORM corebank_internal.fail('CBV00', 'name: is required');
    END IF;
    INSERT INTO corebank.branches AS b (code, name, city, address, phone, updated_by)
    VALUES (new_code, new_name, corebank_internal.json_text(request, 'city', 100),
            corebank_internal.json_text(request, 'address', 300), corebank_internal.json_text(request, 'phone', 32),
            actor)
    ON CONFLICT DO NOTHING
    RETURNING b.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', format('A branch with code %s already exists', new_code));
    END IF;
    RETURN corebank_internal.branch_json(new_id);
END
$fn$;

-- UpdateBranchRequest: {name?, city?, address?, phone?, active?}. The code
-- is the branch's identity (staff records carry it) and cannot change; the
-- head office cannot be deactivated.
CREATE FUNCTION corebank.core_branch_update(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.branches;
    new_code text;
    new_name text;
    is_active bool;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    IF request IS NULL OR jsonb_typeof(request) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'request: must be a JSON object');
    END IF;
    new_code := upper(corebank_internal.json_text(request, 'code', 10));
    new_name := btrim(corebank_internal.json_text(request, 'name', 100));
    is_active := corebank_internal.json_bool(request, 'active');
    IF new_name = '' THEN
        PERFORM corebank_internal.fail('CBV00', 'name: must not be blank');
    END IF;
    SELECT * INTO b FROM corebank.branches x WHERE x.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Branch not found');
    END IF;
    IF new_code IS NOT NULL AND new_code <> b.code THEN
        PERFORM corebank_internal.fail('CB422', 'A branch code cannot be changed');
    END IF;
    IF b.is_head_office AND is_active IS FALSE THEN
        PERFORM corebank_internal.fail('CB422', 'The head office cannot be deactivated');
    END IF;
    UPDATE corebank.branches x
    SET name = coalesce(new_name, x.name),
        city = CASE WHEN request ? 'city' THEN corebank_internal.json_text(request, 'city', 100) ELSE x.city END,
        address = CASE WHEN request ? 'address' THEN corebank_internal.json_text(request, 'address', 300) ELSE x.address END,
        phone = CASE WHEN request ? 'phone' THEN corebank_internal.json_text(request, 'phone', 32) ELSE x.phone END,
        active = coalesce(is_active, x.active),
        updated_at = now(), updated_by = actor
    WHERE x.id = id;
    RETURN corebank_internal.branch_json(id);
END
$fn$;

-- API keys

-- The tier generates the key and passes only its SHA-256 and a short
-- display prefix. actor may be NULL (the first key, made by the CLI). The
-- limit defaults to 6000 requests per minute.
CREATE FUNCTION corebank.core_api_key_create(service text, name text, scopes text[], caller_id text,
                                             rate_limit_per_minute int, key_hash bytea, key_prefix text,
                                             actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    clean_name text := nullif(btrim(name), '');
    clean_scopes text[];
    new_id uuid;
BEGIN
    IF service IS NULL OR service NOT IN ('core', 'events', 'verify') THEN
        PERFORM corebank_internal.fail('CBV00', 'service: must be core, events or verify');
    END IF;
    IF length(clean_name) > 100 THEN
        PERFORM corebank_internal.fail('CBV00', 'name: must be at most 100 characters');
    END IF;
    IF scopes IS NULL OR cardinality(scopes) NOT BETWEEN 1 AND 20 OR array_ndims(scopes) > 1
       OR EXISTS (SELECT FROM unnest(scopes) AS s(scope) WHERE s.scope IS NULL OR s.scope !~ '^[a-z][a-z0-9:_.-]{0,49}$') THEN
        PERFORM corebank_internal.fail('CBV00', 'scopes: must be 1 to 20 scope names such as read, write, admin');
    END IF;
    IF caller_id IS NOT NULL AND caller_id !~ '^[A-Za-z0-9._:-]{1,100}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'callerId: must be 1 to 100 of A-Z a-z 0-9 . _ : -');
    END IF;
    IF service = 'events' AND caller_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'callerId: is required for an events key');
    END IF;
    IF rate_limit_per_minute IS NOT NULL AND rate_limit_per_minute NOT BETWEEN 1 AND 1000000 THEN
        PERFORM corebank_internal.fail('CBV00', 'rateLimitPerMinute: must be from 1 to 1000000');
    END IF;
    IF key_hash IS NULL OR length(key_hash) <> 32 THEN
        PERFORM corebank_internal.fail('CBV00', 'key_hash: must be a SHA-256 hash (32 bytes)');
    END IF;
    IF key_prefix IS NULL OR key_prefix !~ '^[A-Za-z0-9_-]{1,16}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'key_prefix: must be 1 to 16 of A-Z a-z 0-9 _ -');
    END IF;
    clean_scopes := ARRAY(SELECT DISTINCT s.scope FROM unnest(scopes) AS s(scope) ORDER BY 1);
    INSERT INTO corebank.api_keys AS k (service, name, key_hash, key_prefix, scopes, caller_id,
                                        rate_limit_per_minute, created_by)
    VALUES (service, clean_name, key_hash, key_prefix, clean_scopes, caller_id,
            coalesce(rate_limit_per_minute, 6000), actor)
    ON CONFLICT DO NOTHING
    RETURNING k.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'An API key with this hash already exists');
    END IF;
    RETURN corebank_internal.api_key_json(new_id);
END
$fn$;

CREATE FUNCTION corebank.core_api_keys_list(service text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF service IS NOT NULL AND service NOT IN ('core', 'events', 'verify') THEN
        PERFORM corebank_internal.fail('CBV00', 'service: must be core, events or verify');
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.api_key_json(k.id) ORDER BY k.created_at, k.id), '[]'::jsonb)
            FROM corebank.api_keys k WHERE service IS NULL OR k.service = service);
END
$fn$;

CREATE FUNCTION corebank.core_api_key_revoke(id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    current_status text;
BEGIN
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    SELECT k.status INTO current_status FROM corebank.api_keys k WHERE k.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'API key not found');
    END IF;
    IF current_status = 'REVOKED' THEN
        PERFORM corebank_internal.fail('CB409', 'API key is already revoked');
    END IF;
    UPDATE corebank.api_keys k SET status = 'REVOKED', revoked_at = now(), revoked_by = actor WHERE k.id = id;
    RETURN corebank_internal.api_key_json(id);
END
$fn$;

-- Hot path, once per request of every service. NULL for an unknown or
-- revoked key (or a key of another service). Counts the request in the
-- current minute: each backend adds to its own stripe (pid % 8), and the
-- limit applies to the sum of the stripes, so it holds across tier processes
-- without every request waiting on one counter row. last_used_at is written
-- at most once a minute per key for the same reason.
CREATE FUNCTION corebank.core_api_key_authenticate(key_hash bytea, service text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    stripes CONSTANT int := 8;
    k record;
    window_at timestamptz := date_trunc('minute', now());
    my_stripe smallint := (pg_backend_pid() % stripes)::smallint;
    hits bigint;
BEGIN
    IF core_api_key_authenticate.key_hash IS NULL OR length(core_api_key_authenticate.key_hash) <> 32 THEN
        RETURN NULL;
    END IF;
    SELECT a.id, a.scopes, a.caller_id, a.rate_limit_per_minute, a.last_used_at, a.name INTO k
    FROM corebank.api_keys a
    WHERE a.key_hash = core_api_key_authenticate.key_hash AND a.service = core_api_key_authenticate.service
      AND a.status = 'ACTIVE';
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    WITH hit AS (
        INSERT INTO corebank.api_key_rate_counters AS c (api_key_id, window_start, stripe, hits)
        VALUES (k.id, window_at, my_stripe, 1)
        ON CONFLICT (api_key_id, window_start, stripe) DO UPDATE SET hits = least(c.hits, 2147483646) + 1
        RETURNING c.hits
    )
    SELECT hit.hits + coalesce((SELECT sum(c.hits) FROM corebank.api_key_rate_counters c
                                WHERE c.api_key_id = k.id AND c.window_start = window_at AND c.stripe <> my_stripe), 0)
    INTO hits
    FROM hit;
    IF k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute' THEN
        UPDATE corebank.api_keys a SET last_used_at = now()
        WHERE a.id = k.id AND (a.last_used_at IS NULL OR a.last_used_at < now() - interval '1 minute');
    END IF;
    RETURN jsonb_build_object('id', k.id, 'name', k.name, 'scopes', to_jsonb(k.scopes), 'callerId', k.caller_id,
                              'rateLimitPerMinute', k.rate_limit_per_minute,
                              'allowed', hits <= k.rate_limit_per_minute);
END
$fn$;

-- Housekeeping for the tier to call every minute: stores LAPSED on overdue
-- parked changes and prunes finished rate-limit windows, in bounded batches.
CREATE FUNCTION corebank.core_maintenance() RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    lapsed int;
    pruned int;
BEGIN
    lapsed := corebank.parked_changes_lapse();
    DELETE FROM corebank.api_key_rate_counters c
    WHERE c.ctid = ANY (ARRAY(SELECT x.ctid FROM corebank.api_key_rate_counters x
                              WHERE x.window_start < date_trunc('minute', now()) - interval '1 minute'
                              LIMIT 10000));
    GET DIAGNOSTICS pruned = ROW_COUNT;
    RETURN jsonb_build_object('lapsedChanges', lapsed, 'rateCountersPruned', pruned);
END
$fn$;

-- privileges
--
-- As in 1.0: corebank_app executes the API functions and touches no table.
-- The auditor reads the journal, the transactions, the chain heads and the
-- approvals, and runs the verification and report functions; reporting has
-- the auditor's rights plus the chart, the accounts and the balance view.

REVOKE ALL ON ALL TABLES IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA corebank_internal FROM PUBLIC;

GRANT EXECUTE ON FUNCTION
    corebank.ledger_post(jsonb),
    corebank.ledger_account_open(jsonb),
    corebank.next_number(text),
    corebank.business_today(),
    corebank.ledger_check_balances(),
    corebank.ledger_verify_chain(),
    corebank.trial_balance_as_of(date),
    corebank.account_statement(uuid, date, date),
    corebank.gl_balances_as_of(date),
    corebank.parked_change_create(text, text, text, jsonb, text, uuid),
    corebank.parked_change_approve(uuid, uuid, text),
    corebank.parked_change_reject(uuid, uuid, text),
    corebank.parked_changes_lapse(),
    corebank.core_transaction_capture(jsonb, uuid),
    corebank.core_transaction_post(uuid, uuid),
    corebank.core_transaction_abandon(uuid, uuid),
    corebank.core_transaction_reverse_request(uuid, text, uuid),
    corebank.core_transaction_get(uuid),
    corebank.core_transaction_search(jsonb),
    corebank.core_approvals_list(text, int, int),
    corebank.core_approval_get(uuid),
    corebank.core_approval_approve(uuid, uuid, text),
    corebank.core_approval_reject(uuid, uuid, text),
    corebank.core_platform_config_get(),
    corebank.core_platform_config_update(jsonb, uuid),
    corebank.core_branch_scoping_get(),
    corebank.core_branch_scoping_update_request(jsonb, uuid),
    corebank.core_numbering_list(),
    corebank.core_numbering_update(text, jsonb, uuid),
    corebank.core_gl_accounts_list(jsonb),
    corebank.core_gl_account_get(uuid),
    corebank.core_gl_account_create(jsonb, uuid),
    corebank.core_gl_account_update(uuid, jsonb, uuid),
    corebank.core_gl_budgets_list(text),
    corebank.core_gl_budget_upsert(jsonb, uuid),
    corebank.core_branches_list(),
    corebank.core_branch_get(uuid),
    corebank.core_branch_create(jsonb, uuid),
    corebank.core_branch_update(uuid, jsonb, uuid),
    corebank.core_periods_list(),
    corebank.core_period_close_request(text, uuid),
    corebank.core_period_reopen_request(text, uuid),
    corebank.core_api_key_create(text, text, text[], text, int, bytea, text, uuid),
    corebank.core_api_keys_list(text),
    corebank.core_api_key_revoke(uuid, uuid),
    corebank.core_api_key_authenticate(bytea, text),
    corebank.core_maintenance()
TO corebank_app;

GRANT USAGE ON SCHEMA corebank TO corebank_auditor, corebank_reporting;
GRANT SELECT ON corebank.journal_entries, corebank.transactions, corebank.transaction_lines_proposed,
                corebank.chain_heads, corebank.parked_changes, corebank.accounting_periods
    TO corebank_auditor, corebank_reporting;
GRANT EXECUTE ON FUNCTION
    corebank.ledger_verify_chain(),
    corebank.ledger_check_balances(),
    corebank.trial_balance_as_of(date),
    corebank.account_statement(uuid, date, date),
    corebank.gl_balances_as_of(date),
    corebank.business_today()
TO corebank_auditor, corebank_reporting;
GRANT SELECT ON corebank.gl_accounts, corebank.ledger_accounts, corebank.branches, corebank.currencies,
                corebank.gl_budgets, corebank.gl_balances
    TO corebank_reporting;
