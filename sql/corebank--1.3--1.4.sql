/* sql/corebank--1.3--1.4.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION corebank UPDATE TO '1.4'" to load this file. \quit

-- corebank 1.4: customers, accounts and deposits (docs/design/deposits.md).
--
-- Uses the identity store (1.0) and the ledger (1.1) and nothing else.
--
-- What holds, whoever writes (C++ triggers):
--   - an account's status moves only along the lifecycle of the contract;
--     CLOSED needs a zero balance and no accrued interest, and is terminal;
--   - a customer's identity fields never change; the interaction log, the
--     status history, KYC checks and reviews, exchange rates and interest
--     accruals are append-only;
--   - a CIF case moves only OPEN -> RESOLVED, stamped, and stays RESOLVED;
--   - a KYC document is decided once, only through an approved maker-checker
--     change, never by its maker;
--   - a beneficial owner is an individual with 25% or more, or control, of a
--     corporate, and one corporate's owners hold at most 100%;
--   - a passbook stores no amount, only how far it is printed, which moves
--     forward; at most one live book per account;
--   - a standing order's terms are frozen and its status moves only along
--     ACTIVE <-> PAUSED -> CANCELLED / COMPLETED; one execution per order and date.
-- Money moves only through the ledger's posting engine, via the C++
-- account-posting rules (corebank_internal.account_post), which apply the
-- account states, minimum balances and dormancy reactivation.
--
-- Plain reads and simple writes are PL/pgSQL, as in 1.0 and 1.1. API
-- functions are SECURITY DEFINER with search_path pinned and EXECUTE granted
-- to corebank_app; helpers live in corebank_internal with no grant.

-- the ledger's tables, extended

ALTER TABLE corebank.ledger_accounts DROP CONSTRAINT ledger_accounts_status;
ALTER TABLE corebank.ledger_accounts ADD CONSTRAINT ledger_accounts_status
    CHECK (status IN ('PENDING_ACTIVATION', 'ACTIVE', 'FROZEN', 'DORMANT', 'CLOSED'));

ALTER TABLE corebank.idempotency_keys DROP CONSTRAINT idempotency_keys_scope;
ALTER TABLE corebank.idempotency_keys ADD CONSTRAINT idempotency_keys_scope
    CHECK (scope IN ('ledger.post', 'transaction.capture', 'core.money'));

-- customers and the CIF

CREATE SEQUENCE corebank.customer_number_seq;
CREATE SEQUENCE corebank.standing_order_number_seq;

CREATE TABLE corebank.customers (
    id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_number          text NOT NULL UNIQUE,
    type                     text NOT NULL,
    status                   text NOT NULL DEFAULT 'ACTIVE',
    first_name               text,
    middle_name              text,
    last_name                text,
    date_of_birth            date,
    gender                   text,
    national_id              text,
    nationality              char(2),
    legal_name               text,
    trading_name             text,
    registration_number      text,
    incorporation_date       date,
    country_of_incorporation char(2),
    branch_id                uuid NOT NULL REFERENCES corebank.branches (id),
    -- Stored only: payments do not enforce it (spec).
    signing_mandate          text,
    risk_category            text NOT NULL DEFAULT 'LOW',
    risk_reason              text,
    risk_set_at              timestamptz,
    risk_set_by              uuid,
    next_review_date         date,
    last_reviewed_at         timestamptz,
    last_reviewed_by         uuid,
    created_at               timestamptz NOT NULL DEFAULT now(),
    created_by               uuid,
    updated_at               timestamptz NOT NULL DEFAULT now(),
    updated_by               uuid,
    CONSTRAINT customers_number CHECK (customer_number ~ '^CU[0-9]{10,}$'),
    CONSTRAINT customers_type CHECK (type IN ('INDIVIDUAL', 'CORPORATE')),
    CONSTRAINT customers_status CHECK (status IN ('ACTIVE', 'INACTIVE')),
    CONSTRAINT customers_gender CHECK (gender IN ('MALE', 'FEMALE', 'OTHER')),
    CONSTRAINT customers_countries CHECK (nationality ~ '^[A-Z]{2}$' AND country_of_incorporation ~ '^[A-Z]{2}$'),
    CONSTRAINT customers_mandate CHECK (signing_mandate IN ('ANY_ONE', 'ANY_TWO', 'ALL')),
    CONSTRAINT customers_risk CHECK (risk_category IN ('LOW', 'MEDIUM', 'HIGH', 'PROHIBITED')),
    CONSTRAINT customers_individual
        CHECK (type <> 'INDIVIDUAL'
               OR (first_name IS NOT NULL AND last_name IS NOT NULL AND date_of_birth IS NOT NULL
                   AND legal_name IS NULL AND trading_name IS NULL AND registration_number IS NULL
                   AND incorporation_date IS NULL AND country_of_incorporation IS NULL AND signing_mandate IS NULL)),
    CONSTRAINT customers_corporate
        CHECK (type <> 'CORPORATE'
               OR (legal_name IS NOT NULL AND registration_number IS NOT NULL
                   AND first_name IS NULL AND middle_name IS NULL AND last_name IS NULL AND date_of_birth IS NULL
                   AND gender IS NULL AND national_id IS NULL AND nationality IS NULL)),
    CONSTRAINT customers_texts
        CHECK (length(first_name) BETWEEN 1 AND 100 AND length(middle_name) BETWEEN 1 AND 100
               AND length(last_name) BETWEEN 1 AND 100 AND length(national_id) BETWEEN 1 AND 50
               AND length(legal_name) BETWEEN 1 AND 200 AND length(trading_name) BETWEEN 1 AND 200
               AND length(registration_number) BETWEEN 1 AND 50 AND length(risk_reason) <= 500),
    CONSTRAINT customers_dates CHECK (date_of_birth >= DATE '1900-01-01' AND incorporation_date >= DATE '1800-01-01')
);
COMMENT ON TABLE corebank.customers IS 'Customers (CIF): individuals and corporates; identity fields are frozen';
CREATE UNIQUE INDEX customers_national_id ON corebank.customers (national_id) WHERE national_id IS NOT NULL;
CREATE UNIQUE INDEX customers_registration ON corebank.customers (registration_number)
    WHERE registration_number IS NOT NULL;
CREATE INDEX customers_review_due ON corebank.customers (next_review_date) WHERE next_review_date IS NOT NULL;

CREATE TABLE corebank.customer_profiles (
    customer_id           uuid PRIMARY KEY REFERENCES corebank.customers (id),
    email                 text,
    phone                 text,
    address_line1         text,
    address_line2         text,
    city                  text,
    province              text,
    postal_code           text,
    country               char(2),
    employment_status     text,
    employer_name         text,
    occupation            text,
    declared_income_minor bigint,
    income_currency       char(3) REFERENCES corebank.currencies (code),
    income_frequency      text,
    updated_at            timestamptz NOT NULL DEFAULT now(),
    updated_by            uuid,
    CONSTRAINT customer_profiles_email CHECK (email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' AND length(email) <= 254),
    CONSTRAINT customer_profiles_phone CHECK (phone ~ '^\+?[0-9]{10,15}$'),
    CONSTRAINT customer_profiles_country CHECK (country ~ '^[A-Z]{2}$'),
    CONSTRAINT customer_profiles_employment
        CHECK (employment_status IN ('EMPLOYED', 'SELF_EMPLOYED', 'UNEMPLOYED', 'RETIRED', 'STUDENT')),
    CONSTRAINT customer_profiles_income
        CHECK (declared_income_minor BETWEEN 0 AND 1000000000000000
               AND (declared_income_minor IS NULL) = (income_currency IS NULL)
               AND (declared_income_minor IS NULL) = (income_frequency IS NULL)),
    CONSTRAINT customer_profiles_frequency CHECK (income_frequency IN ('MONTHLY', 'ANNUAL')),
    CONSTRAINT customer_profiles_texts
        CHECK (length(address_line1) <= 200 AND length(address_line2) <= 200 AND length(city) <= 100
               AND length(province) <= 100 AND length(postal_code) <= 20 AND length(employer_name) <= 200
               AND length(occupation) <= 100)
);
COMMENT ON TABLE corebank.customer_profiles IS 'Customer CIF profile: contact, structured address, employment, declared income';

CREATE TABLE corebank.customer_interactions (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_id      uuid NOT NULL REFERENCES corebank.customers (id),
    channel          text NOT NULL,
    interaction_type text NOT NULL,
    summary          text NOT NULL,
    notes            text,
    occurred_at      timestamptz NOT NULL,
    recorded_by      uuid NOT NULL,
    recorded_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT customer_interactions_channel
        CHECK (channel IN ('BRANCH', 'PHONE', 'EMAIL', 'SMS', 'MOBILE', 'WEB', 'OTHER')),
    CONSTRAINT customer_interactions_type
        CHECK (interaction_type IN ('ENQUIRY', 'COMPLAINT', 'SERVICE_REQUEST', 'SALES', 'KYC', 'OTHER')),
    CONSTRAINT customer_interactions_texts CHECK (length(summary) BETWEEN 1 AND 500 AND length(notes) <= 4000)
);
COMMENT ON TABLE corebank.customer_interactions IS 'Customer interaction log (append-only)';
CREATE INDEX customer_interactions_by_customer ON corebank.customer_interactions (customer_id, recorded_at DESC, id);

CREATE TABLE corebank.customer_cases (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_id uuid NOT NULL REFERENCES corebank.customers (id),
    subject     text NOT NULL,
    description text,
    category    text,
    status      text NOT NULL DEFAULT 'OPEN',
    opened_by   uuid NOT NULL,
    opened_at   timestamptz NOT NULL DEFAULT now(),
    resolved_by uuid,
    resolved_at timestamptz,
    resolution  text,
    CONSTRAINT customer_cases_status CHECK (status IN ('OPEN', 'RESOLVED')),
    CONSTRAINT customer_cases_resolved
        CHECK ((status = 'RESOLVED') = (resolved_by IS NOT NULL AND resolved_at IS NOT NULL AND resolution IS NOT NULL)),
    CONSTRAINT customer_cases_texts
        CHECK (length(subject) BETWEEN 1 AND 200 AND length(description) <= 4000 AND length(category) <= 50
               AND length(resolution) BETWEEN 1 AND 4000)
);
COMMENT ON TABLE corebank.customer_cases IS 'Customer CIF cases: OPEN -> RESOLVED (terminal), actor and time on both';
CREATE INDEX customer_cases_by_customer ON corebank.customer_cases (customer_id, opened_at DESC);

CREATE TABLE corebank.beneficial_owners (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_id       uuid NOT NULL REFERENCES corebank.customers (id),
    owner_customer_id uuid REFERENCES corebank.customers (id),
    full_name         text NOT NULL,
    date_of_birth     date,
    nationality       char(2),
    national_id       text,
    ownership_bp      int NOT NULL DEFAULT 0,
    has_control       bool NOT NULL DEFAULT false,
    active            bool NOT NULL DEFAULT true,
    created_at        timestamptz NOT NULL DEFAULT now(),
    created_by        uuid NOT NULL,
    removed_at        timestamptz,
    removed_by        uuid,
    CONSTRAINT beneficial_owners_ownership CHECK (ownership_bp BETWEEN 0 AND 10000),
    -- The spec's threshold: 25% or more of ownership, or control.
    CONSTRAINT beneficial_owners_threshold CHECK (ownership_bp >= 2500 OR has_control),
    CONSTRAINT beneficial_owners_removed CHECK (active = (removed_at IS NULL) AND (removed_at IS NULL) = (removed_by IS NULL)),
    CONSTRAINT beneficial_owners_not_self CHECK (owner_customer_id <> customer_id),
    CONSTRAINT beneficial_owners_texts
        CHECK (length(full_name) BETWEEN 1 AND 200 AND length(national_id) <= 50 AND nationality ~ '^[A-Z]{2}$')
);
COMMENT ON TABLE corebank.beneficial_owners IS 'Beneficial owners of corporates: individuals with 25% or more, or control';
CREATE INDEX beneficial_owners_by_customer ON corebank.beneficial_owners (customer_id) WHERE active;

CREATE TABLE corebank.beneficiaries (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_id     uuid NOT NULL REFERENCES corebank.customers (id),
    name            text NOT NULL,
    account_number  text NOT NULL,
    bank_swift_code text,
    account_id      uuid REFERENCES corebank.ledger_accounts (id),
    currency        char(3) NOT NULL REFERENCES corebank.currencies (code),
    nickname        text,
    active          bool NOT NULL DEFAULT true,
    created_at      timestamptz NOT NULL DEFAULT now(),
    created_by      uuid NOT NULL,
    removed_at      timestamptz,
    removed_by      uuid,
    CONSTRAINT beneficiaries_swift CHECK (bank_swift_code ~ '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$'),
    CONSTRAINT beneficiaries_internal CHECK (account_id IS NULL OR bank_swift_code IS NULL),
    CONSTRAINT beneficiaries_removed CHECK (active = (removed_at IS NULL)),
    CONSTRAINT beneficiaries_texts
        CHECK (length(name) BETWEEN 1 AND 200 AND account_number ~ '^[A-Za-z0-9-]{1,34}$' AND length(nickname) <= 100)
);
COMMENT ON TABLE corebank.beneficiaries IS 'Payees of a customer; removal is soft';
CREATE INDEX beneficiaries_by_customer ON corebank.beneficiaries (customer_id) WHERE active;

CREATE TABLE corebank.kyc_documents (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_id      uuid NOT NULL REFERENCES corebank.customers (id),
    document_type    text NOT NULL,
    document_number  text NOT NULL,
    issuing_country  char(2),
    issued_on        date,
    expires_on       date,
    status           text NOT NULL DEFAULT 'PENDING',
    submitted_by     uuid NOT NULL,
    submitted_at     timestamptz NOT NULL DEFAULT now(),
    decided_by       uuid,
    decided_at       timestamptz,
    decision_note    text,
    parked_change_id uuid REFERENCES corebank.parked_changes (id),
    UNIQUE (customer_id, document_type, document_number),
    CONSTRAINT kyc_documents_type
        CHECK (document_type IN ('NATIONAL_ID', 'PASSPORT', 'DRIVERS_LICENCE', 'COMPANY_REGISTRATION',
                                 'PROOF_OF_ADDRESS', 'TAX_CERTIFICATE', 'OTHER')),
    CONSTRAINT kyc_documents_status CHECK (status IN ('PENDING', 'VERIFIED', 'REJECTED')),
    CONSTRAINT kyc_documents_decided
        CHECK ((status = 'PENDING') = (decided_by IS NULL AND decided_at IS NULL)
               AND (status = 'PENDING' OR parked_change_id IS NOT NULL)),
    CONSTRAINT kyc_documents_dates CHECK (expires_on > issued_on),
    CONSTRAINT kyc_documents_texts
        CHECK (document_number ~ '^[A-Za-z0-9 /.-]{1,50}$' AND issuing_country ~ '^[A-Z]{2}$'
               AND length(decision_note) <= 1000)
);
COMMENT ON TABLE corebank.kyc_documents IS 'KYC identity documents; decided once, through maker-checker (kyc.document.verify)';

CREATE TABLE corebank.kyc_checks (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_id   uuid NOT NULL REFERENCES corebank.customers (id),
    check_type    text NOT NULL,
    provider_mode text NOT NULL,
    source        text NOT NULL,
    outcome       text NOT NULL,
    details       jsonb NOT NULL DEFAULT '{}',
    requested_by  uuid NOT NULL,
    requested_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT kyc_checks_type
        CHECK (check_type IN ('IDENTITY_REGISTRY', 'SANCTIONS_PEP', 'CREDIT_BUREAU', 'ADVERSE_MEDIA')),
    CONSTRAINT kyc_checks_mode CHECK (provider_mode ~ '^[A-Z_]{1,32}$'),
    CONSTRAINT kyc_checks_source CHECK (source ~ '^[A-Z_]{1,32}$'),
    CONSTRAINT kyc_checks_outcome CHECK (outcome IN ('CLEAR', 'MATCH', 'REVIEW', 'ERROR')),
    CONSTRAINT kyc_checks_details CHECK (jsonb_typeof(details) = 'object')
);
COMMENT ON TABLE corebank.kyc_checks IS 'External KYC check results (append-only); the offline stub records source STUB';
CREATE INDEX kyc_checks_by_customer ON corebank.kyc_checks (customer_id, requested_at DESC);

CREATE TABLE corebank.kyc_reviews (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_id      uuid NOT NULL REFERENCES corebank.customers (id),
    risk_category    text NOT NULL,
    notes            text,
    next_review_date date,
    reviewed_by      uuid NOT NULL,
    reviewed_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT kyc_reviews_notes CHECK (length(notes) <= 2000)
);
COMMENT ON TABLE corebank.kyc_reviews IS 'Periodic KYC reviews done (append-only)';

-- products

CREATE TABLE corebank.deposit_products (
    id                          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    code                        text NOT NULL UNIQUE,
    name                        text NOT NULL,
    account_type                text NOT NULL,
    currency                    char(3) NOT NULL REFERENCES corebank.currencies (code),
    interest_method             text NOT NULL DEFAULT 'NONE',
    annual_rate_bp              int NOT NULL DEFAULT 0,
    minimum_balance_minor       bigint NOT NULL DEFAULT 0,
    minimum_opening_minor       bigint NOT NULL DEFAULT 0,
    monthly_fee_minor           bigint NOT NULL DEFAULT 0,
    withdrawal_fee_minor        bigint NOT NULL DEFAULT 0,
    term_days                   int,
    early_withdrawal_penalty_bp int NOT NULL DEFAULT 0,
    dormancy_days               int,
    requires_activation         bool NOT NULL DEFAULT false,
    internal                    bool NOT NULL DEFAULT false,
    gl_account_code             text NOT NULL,
    allow_overdraft_minor       bigint NOT NULL DEFAULT 0,
    active                      bool NOT NULL DEFAULT true,
    created_at                  timestamptz NOT NULL DEFAULT now(),
    updated_at                  timestamptz NOT NULL DEFAULT now(),
    updated_by                  uuid,
    CONSTRAINT deposit_products_code CHECK (code ~ '^[A-Z0-9-]{2,20}$'),
    CONSTRAINT deposit_products_name CHECK (length(name) BETWEEN 1 AND 100),
    CONSTRAINT deposit_products_type
        CHECK (account_type IN ('SAVINGS', 'CURRENT', 'FIXED_DEPOSIT', 'CALL_DEPOSIT', 'MONEY_MARKET', 'TRUST',
                                'ESCROW', 'NOSTRO', 'SUSPENSE', 'GL')),
    CONSTRAINT deposit_products_method CHECK (interest_method IN ('NONE', 'SIMPLE', 'COMPOUND')),
    CONSTRAINT deposit_products_rate CHECK (annual_rate_bp BETWEEN 0 AND 100000),
    CONSTRAINT deposit_products_amounts
        CHECK (minimum_balance_minor BETWEEN 0 AND 1000000000000000 AND minimum_opening_minor BETWEEN 0 AND 1000000000000000
               AND monthly_fee_minor BETWEEN 0 AND 1000000000000000 AND withdrawal_fee_minor BETWEEN 0 AND 1000000000000000
               AND allow_overdraft_minor BETWEEN 0 AND 1000000000000000),
    CONSTRAINT deposit_products_term
        CHECK ((account_type = 'FIXED_DEPOSIT') = (term_days IS NOT NULL) AND term_days BETWEEN 1 AND 3660),
    CONSTRAINT deposit_products_penalty CHECK (early_withdrawal_penalty_bp BETWEEN 0 AND 10000),
    CONSTRAINT deposit_products_dormancy CHECK (dormancy_days BETWEEN 1 AND 3660),
    CONSTRAINT deposit_products_internal
        CHECK (internal = (account_type IN ('NOSTRO', 'SUSPENSE', 'GL'))
               AND (NOT internal OR (interest_method = 'NONE' AND dormancy_days IS NULL))),
    CONSTRAINT deposit_products_gl CHECK (gl_account_code ~ '^[A-Za-z0-9._-]{1,20}$')
);
COMMENT ON TABLE corebank.deposit_products IS 'Deposit products (16 seeded): rates, minimum balance, fees, tiers, terms, penalties';

CREATE TABLE corebank.deposit_product_tiers (
    product_id uuid NOT NULL REFERENCES corebank.deposit_products (id),
    from_minor bigint NOT NULL,
    rate_bp    int NOT NULL,
    PRIMARY KEY (product_id, from_minor),
    CONSTRAINT deposit_product_tiers_from CHECK (from_minor BETWEEN 0 AND 1000000000000000),
    CONSTRAINT deposit_product_tiers_rate CHECK (rate_bp BETWEEN 0 AND 100000)
);
COMMENT ON TABLE corebank.deposit_product_tiers IS 'Interest bands of a product: the slice from from_minor earns rate_bp';

INSERT INTO corebank.deposit_products (code, name, account_type, currency, interest_method, annual_rate_bp,
                                       minimum_balance_minor, minimum_opening_minor, monthly_fee_minor,
                                       withdrawal_fee_minor, term_days, early_withdrawal_penalty_bp, dormancy_days,
                                       requires_activation, internal, gl_account_code, allow_overdraft_minor) VALUES
    ('SAV-STD', 'Standard Savings', 'SAVINGS', 'USD', 'SIMPLE', 250, 1000, 1000, 0, 0, NULL, 0, 365, false, false, '2000', 0),
    ('SAV-ZWG', 'ZWG Savings', 'SAVINGS', 'ZWG', 'SIMPLE', 500, 50000, 50000, 0, 0, NULL, 0, 365, false, false, '2000', 0),
    ('SAV-PLUS', 'Savings Plus', 'SAVINGS', 'USD', 'COMPOUND', 300, 5000, 5000, 0, 100, NULL, 0, 365, false, false, '2000', 0),
    ('SAV-TIER', 'Tiered Savings', 'SAVINGS', 'USD', 'SIMPLE', 0, 0, 0, 0, 0, NULL, 0, 365, false, false, '2000', 0),
    ('CUR-STD', 'Current Account', 'CURRENT', 'USD', 'NONE', 0, 0, 0, 500, 0, NULL, 0, 180, false, false, '2010', 0),
    ('CUR-ZWG', 'ZWG Current Account', 'CURRENT', 'ZWG', 'NONE', 0, 0, 0, 5000, 0, NULL, 0, 180, false, false, '2010', 0),
    ('FD-3M', 'Fixed Deposit 3 Months', 'FIXED_DEPOSIT', 'USD', 'SIMPLE', 600, 0, 100000, 0, 0, 90, 200, NULL, false, false, '2020', 0),
    ('FD-6M', 'Fixed Deposit 6 Months', 'FIXED_DEPOSIT', 'USD', 'SIMPLE', 700, 0, 100000, 0, 0, 180, 200, NULL, false, false, '2020', 0),
    ('FD-12M', 'Fixed Deposit 12 Months', 'FIXED_DEPOSIT', 'USD', 'COMPOUND', 850, 0, 100000, 0, 0, 365, 300, NULL, false, false, '2020', 0),
    ('CALL-USD', 'Call Deposit', 'CALL_DEPOSIT', 'USD', 'SIMPLE', 400, 100000, 100000, 0, 0, NULL, 0, 365, false, false, '2000', 0),
    ('MM-USD', 'Money Market', 'MONEY_MARKET', 'USD', 'COMPOUND', 0, 1000000, 1000000, 0, 0, NULL, 0, 365, false, false, '2020', 0),
    ('TRUST-USD', 'Trust Account', 'TRUST', 'USD', 'NONE', 0, 0, 0, 1000, 0, NULL, 0, 365, true, false, '2010', 0),
    ('ESCROW-USD', 'Escrow Account', 'ESCROW', 'USD', 'NONE', 0, 0, 0, 0, 0, NULL, 0, NULL, true, false, '2010', 0),
    ('NOSTRO-USD', 'Nostro Account', 'NOSTRO', 'USD', 'NONE', 0, 0, 0, 0, 0, NULL, 0, NULL, false, true, '1100', 1000000000000000),
    ('SUSP-USD', 'Suspense Account', 'SUSPENSE', 'USD', 'NONE', 0, 0, 0, 0, 0, NULL, 0, NULL, false, true, '1900', 1000000000000000),
    ('GL-USD', 'Internal GL Account', 'GL', 'USD', 'NONE', 0, 0, 0, 0, 0, NULL, 0, NULL, false, true, '1900', 1000000000000000);

INSERT INTO corebank.deposit_product_tiers (product_id, from_minor, rate_bp)
SELECT p.id, t.from_minor, t.rate_bp
FROM corebank.deposit_products p
JOIN (VALUES ('SAV-TIER', 0::bigint, 100), ('SAV-TIER', 100000, 200), ('SAV-TIER', 1000000, 300),
             ('MM-USD', 0, 500), ('MM-USD', 5000000, 600)) AS t(code, from_minor, rate_bp) ON t.code = p.code;

-- accounts

-- Issue 4's side of a customer account; the ledger's ledger_accounts row
-- (same id) carries the number, currency, status and balance.
CREATE TABLE corebank.deposit_accounts (
    id                       uuid PRIMARY KEY REFERENCES corebank.ledger_accounts (id),
    product_id               uuid NOT NULL REFERENCES corebank.deposit_products (id),
    account_type             text NOT NULL,
    customer_id              uuid REFERENCES corebank.customers (id),
    opened_on                date NOT NULL,
    opened_by                uuid NOT NULL,
    activated_at             timestamptz,
    activated_by             uuid,
    maturity_date            date,
    last_customer_activity_on date,
    dormant_since            date,
    frozen_reason            text,
    frozen_at                timestamptz,
    frozen_by                uuid,
    closed_at                timestamptz,
    closed_by                uuid,
    close_reason             text,
    -- Interest accrued this month: exact (micro-minor units) and the part
    -- already journalled to interest payable (minor units, rounded).
    accrued_micro            numeric(40, 0) NOT NULL DEFAULT 0,
    accrued_minor            bigint NOT NULL DEFAULT 0,
    -- The last day the daily run processed for this account.
    processed_through        date NOT NULL,
    created_at               timestamptz NOT NULL DEFAULT now(),
    updated_at               timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT deposit_accounts_accrued CHECK (accrued_micro >= 0 AND accrued_minor >= 0),
    CONSTRAINT deposit_accounts_texts CHECK (length(frozen_reason) <= 500 AND length(close_reason) <= 500)
);
COMMENT ON TABLE corebank.deposit_accounts IS 'Deposit accounts: product, customer, lifecycle stamps and interest accrual state';
CREATE INDEX deposit_accounts_by_customer ON corebank.deposit_accounts (customer_id) WHERE customer_id IS NOT NULL;
CREATE INDEX deposit_accounts_by_product ON corebank.deposit_accounts (product_id);

CREATE TABLE corebank.account_status_history (
    id          bigserial PRIMARY KEY,
    account_id  uuid NOT NULL REFERENCES corebank.ledger_accounts (id),
    from_status text,
    to_status   text NOT NULL,
    reason      text,
    actor_id    uuid NOT NULL,
    at          timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT account_status_history_reason CHECK (length(reason) <= 500)
);
COMMENT ON TABLE corebank.account_status_history IS 'Every account lifecycle move (append-only)';
CREATE INDEX account_status_history_by_account ON corebank.account_status_history (account_id, id);

-- exchange rates

CREATE TABLE corebank.exchange_rates (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    from_currency  char(3) NOT NULL REFERENCES corebank.currencies (code),
    to_currency    char(3) NOT NULL REFERENCES corebank.currencies (code),
    rate           numeric(20, 10) NOT NULL,
    effective_date date NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    created_by     uuid NOT NULL,
    UNIQUE (from_currency, to_currency, effective_date),
    CONSTRAINT exchange_rates_pair CHECK (from_currency <> to_currency),
    CONSTRAINT exchange_rates_rate CHECK (rate > 0)
);
COMMENT ON TABLE corebank.exchange_rates IS 'Dated exchange rates: 1 from_currency = rate to_currency (append-only)';

-- interest

CREATE TABLE corebank.interest_accruals (
    account_id       uuid NOT NULL REFERENCES corebank.ledger_accounts (id),
    accrual_date     date NOT NULL,
    balance_minor    bigint NOT NULL,
    rate_bp          int NOT NULL,
    accrual_micro    numeric(40, 0) NOT NULL,
    cumulative_micro numeric(40, 0) NOT NULL,
    -- Minor units journalled today: the change of the rounded cumulative.
    journal_minor    bigint NOT NULL,
    PRIMARY KEY (account_id, accrual_date),
    CONSTRAINT interest_accruals_amounts CHECK (accrual_micro >= 0 AND cumulative_micro >= 0 AND journal_minor >= 0)
);
COMMENT ON TABLE corebank.interest_accruals IS 'Daily interest accrual per account (append-only; once per account and day)';

-- The day's accrual journal (Dr 5000 / Cr 2100) per currency and branch.
CREATE TABLE corebank.interest_accrual_journals (
    accrual_date   date NOT NULL,
    currency       char(3) NOT NULL REFERENCES corebank.currencies (code),
    branch_id      uuid NOT NULL REFERENCES corebank.branches (id),
    amount_minor   bigint NOT NULL,
    transaction_id uuid NOT NULL REFERENCES corebank.transactions (id),
    -- A day is processed again for accounts opened after its first run, so
    -- one day, currency and branch may have several journals: batch 1, 2, ...
    batch          smallint NOT NULL DEFAULT 1 CHECK (batch >= 1),
    PRIMARY KEY (accrual_date, currency, branch_id, batch),
    CONSTRAINT interest_accrual_journals_amount CHECK (amount_minor > 0)
);
COMMENT ON TABLE corebank.interest_accrual_journals IS 'Daily interest accrual journal per currency and branch (append-only)';

CREATE TABLE corebank.account_month_ends (
    account_id              uuid NOT NULL REFERENCES corebank.ledger_accounts (id),
    period                  char(7) NOT NULL,
    interest_minor          bigint NOT NULL DEFAULT 0,
    interest_transaction_id uuid REFERENCES corebank.transactions (id),
    fee_minor               bigint NOT NULL DEFAULT 0,
    fee_transaction_id      uuid REFERENCES corebank.transactions (id),
    fee_skipped_reason      text,
    created_at              timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, period),
    CONSTRAINT account_month_ends_period CHECK (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$')
);
COMMENT ON TABLE corebank.account_month_ends IS 'Month-end interest posting and maintenance fee per account (once per month)';

-- passbooks

CREATE TABLE corebank.passbooks (
    id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    account_id               uuid NOT NULL REFERENCES corebank.ledger_accounts (id),
    book_number              int NOT NULL,
    status                   text NOT NULL DEFAULT 'ACTIVE',
    replaces_id              uuid REFERENCES corebank.passbooks (id),
    -- The book's lines are the account's journal entries after this one;
    -- it has printed every line up to printed_through_entry_id. No amounts.
    starts_after_entry_id    bigint NOT NULL DEFAULT 0,
    printed_through_entry_id bigint,
    issued_at                timestamptz NOT NULL DEFAULT now(),
    issued_by                uuid NOT NULL,
    lost_at                  timestamptz,
    lost_by                  uuid,
    lost_reason              text,
    closed_at                timestamptz,
    UNIQUE (account_id, book_number),
    CONSTRAINT passbooks_status CHECK (status IN ('ACTIVE', 'LOST', 'CLOSED')),
    CONSTRAINT passbooks_printed CHECK (printed_through_entry_id > starts_after_entry_id AND starts_after_entry_id >= 0),
    CONSTRAINT passbooks_lost CHECK ((status = 'LOST') = (lost_at IS NOT NULL)),
    CONSTRAINT passbooks_reason CHECK (length(lost_reason) <= 500)
);
COMMENT ON TABLE corebank.passbooks IS 'Passbooks: no money, only where a book starts and how far it is printed';
CREATE UNIQUE INDEX passbooks_one_live ON corebank.passbooks (account_id) WHERE status = 'ACTIVE';

-- standing orders

CREATE TABLE corebank.standing_orders (
    id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    reference            text NOT NULL UNIQUE,
    source_account_id    uuid NOT NULL REFERENCES corebank.ledger_accounts (id),
    target_account_id    uuid NOT NULL REFERENCES corebank.ledger_accounts (id),
    beneficiary_id       uuid REFERENCES corebank.beneficiaries (id),
    amount_minor         bigint NOT NULL,
    currency             char(3) NOT NULL REFERENCES corebank.currencies (code),
    frequency            text NOT NULL,
    start_date           date NOT NULL,
    end_date             date,
    next_run_date        date NOT NULL,
    periods_elapsed      int NOT NULL DEFAULT 0,
    last_run_date        date,
    status               text NOT NULL DEFAULT 'ACTIVE',
    description          text,
    consecutive_failures int NOT NULL DEFAULT 0,
    last_failure_reason  text,
    created_by           uuid NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_by           uuid,
    updated_at           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT standing_orders_accounts CHECK (source_account_id <> target_account_id),
    CONSTRAINT standing_orders_amount CHECK (amount_minor BETWEEN 1 AND 1000000000000000),
    CONSTRAINT standing_orders_frequency CHECK (frequency IN ('DAILY', 'WEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY')),
    CONSTRAINT standing_orders_dates CHECK (end_date >= start_date AND next_run_date >= start_date),
    CONSTRAINT standing_orders_status CHECK (status IN ('ACTIVE', 'PAUSED', 'CANCELLED', 'COMPLETED')),
    CONSTRAINT standing_orders_texts CHECK (length(description) <= 200 AND length(last_failure_reason) <= 1000),
    CONSTRAINT standing_orders_counts CHECK (periods_elapsed >= 0 AND consecutive_failures >= 0)
);
COMMENT ON TABLE corebank.standing_orders IS 'Standing orders: scheduled transfers between accounts of one currency';
CREATE INDEX standing_orders_due ON corebank.standing_orders (next_run_date) WHERE status = 'ACTIVE';
CREATE INDEX standing_orders_by_source ON corebank.standing_orders (source_account_id);
CREATE INDEX standing_orders_by_target ON corebank.standing_orders (target_account_id);

-- One row per order and execution date: the unique key is what makes a
-- second execution for the same date pay nothing.
CREATE TABLE corebank.standing_order_executions (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    standing_order_id uuid NOT NULL REFERENCES corebank.standing_orders (id),
    execution_date    date NOT NULL,
    scheduled_date    date NOT NULL,
    status            text NOT NULL DEFAULT 'RUNNING',
    transaction_id    uuid REFERENCES corebank.transactions (id),
    reason            text,
    executed_by       uuid NOT NULL,
    executed_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (standing_order_id, execution_date),
    CONSTRAINT standing_order_executions_status CHECK (status IN ('RUNNING', 'SUCCEEDED', 'FAILED')),
    CONSTRAINT standing_order_executions_paid CHECK ((status = 'SUCCEEDED') = (transaction_id IS NOT NULL)),
    CONSTRAINT standing_order_executions_reason CHECK (length(reason) <= 1000)
);
COMMENT ON TABLE corebank.standing_order_executions IS 'Standing order executions: one per order and execution date';

-- trigger functions (C++)
--
-- The ones that query are SECURITY DEFINER, like the ledger's: a trigger
-- fires as the role of the statement that fired it.

CREATE FUNCTION corebank_internal.deposits_append_only() RETURNS trigger
    AS 'MODULE_PATHNAME', 'deposits_append_only' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.customer_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'customer_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.customer_case_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'customer_case_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.beneficial_owner_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'beneficial_owner_guard' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.kyc_document_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'kyc_document_guard' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.account_lifecycle_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'account_lifecycle_guard' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.deposit_account_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'deposit_account_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.deposit_product_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'deposit_product_guard' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.passbook_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'passbook_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.standing_order_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'standing_order_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;

-- triggers

CREATE TRIGGER customers_guard
    BEFORE UPDATE OR DELETE ON corebank.customers
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.customer_guard();
CREATE TRIGGER customers_no_truncate
    BEFORE TRUNCATE ON corebank.customers
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.deposits_append_only();

CREATE TRIGGER customer_cases_guard
    BEFORE UPDATE OR DELETE ON corebank.customer_cases
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.customer_case_guard();
CREATE TRIGGER customer_cases_no_truncate
    BEFORE TRUNCATE ON corebank.customer_cases
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.deposits_append_only();

CREATE TRIGGER beneficial_owners_guard
    BEFORE INSERT OR UPDATE OR DELETE ON corebank.beneficial_owners
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.beneficial_owner_guard();

CREATE TRIGGER kyc_documents_guard
    BEFORE UPDATE OR DELETE ON corebank.kyc_documents
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.kyc_document_guard();

-- Append-only tables: no UPDATE, DELETE or TRUNCATE.
CREATE TRIGGER customer_interactions_append_only
    BEFORE UPDATE OR DELETE ON corebank.customer_interactions
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER customer_interactions_no_truncate
    BEFORE TRUNCATE ON corebank.customer_interactions
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER kyc_checks_append_only
    BEFORE UPDATE OR DELETE ON corebank.kyc_checks
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER kyc_checks_no_truncate
    BEFORE TRUNCATE ON corebank.kyc_checks
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER kyc_reviews_append_only
    BEFORE UPDATE OR DELETE ON corebank.kyc_reviews
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER kyc_reviews_no_truncate
    BEFORE TRUNCATE ON corebank.kyc_reviews
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER account_status_history_append_only
    BEFORE UPDATE OR DELETE ON corebank.account_status_history
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER account_status_history_no_truncate
    BEFORE TRUNCATE ON corebank.account_status_history
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER exchange_rates_append_only
    BEFORE UPDATE OR DELETE ON corebank.exchange_rates
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER exchange_rates_no_truncate
    BEFORE TRUNCATE ON corebank.exchange_rates
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER interest_accruals_append_only
    BEFORE UPDATE OR DELETE ON corebank.interest_accruals
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER interest_accruals_no_truncate
    BEFORE TRUNCATE ON corebank.interest_accruals
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER interest_accrual_journals_append_only
    BEFORE UPDATE OR DELETE ON corebank.interest_accrual_journals
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.deposits_append_only();
CREATE TRIGGER interest_accrual_journals_no_truncate
    BEFORE TRUNCATE ON corebank.interest_accrual_journals
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.deposits_append_only();

-- The lifecycle: only status moves of the state table, CLOSED at zero, no
-- deletion (the ledger's own guard keeps balances to the posting engine).
CREATE TRIGGER ledger_accounts_lifecycle_open
    BEFORE INSERT ON corebank.ledger_accounts
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.account_lifecycle_guard();
CREATE TRIGGER ledger_accounts_lifecycle
    BEFORE UPDATE OF status ON corebank.ledger_accounts
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION corebank_internal.account_lifecycle_guard();
CREATE TRIGGER ledger_accounts_no_delete
    BEFORE DELETE ON corebank.ledger_accounts
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.account_lifecycle_guard();
CREATE TRIGGER ledger_accounts_no_truncate
    BEFORE TRUNCATE ON corebank.ledger_accounts
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.account_lifecycle_guard();
CREATE TRIGGER deposit_accounts_guard
    BEFORE UPDATE OR DELETE ON corebank.deposit_accounts
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.deposit_account_guard();
CREATE TRIGGER deposit_accounts_no_truncate
    BEFORE TRUNCATE ON corebank.deposit_accounts
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.deposits_append_only();

CREATE TRIGGER deposit_products_guard
    BEFORE UPDATE OR DELETE ON corebank.deposit_products
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.deposit_product_guard();

CREATE TRIGGER passbooks_guard
    BEFORE UPDATE OR DELETE ON corebank.passbooks
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.passbook_guard();

CREATE TRIGGER standing_orders_guard
    BEFORE UPDATE OR DELETE ON corebank.standing_orders
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.standing_order_guard();

-- C++ helpers: the account-posting rules and the interest arithmetic

-- Posts a ledger_post-shaped request under the account rules of the state
-- table; `rules` = {customer: [account ids the customer initiated],
-- minimumBalance: [account ids that must keep the product minimum]}.
CREATE FUNCTION corebank_internal.account_post(request jsonb, rules jsonb) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'account_post' LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;
-- Idempotency of the money functions (scope core.money): NULL when the key
-- is new (now claimed), the stored response on a repeat, CB409 when the key
-- was used for another request.
CREATE FUNCTION corebank_internal.money_idempotency_claim(key text, request jsonb) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'money_idempotency_claim' LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION corebank_internal.money_idempotency_complete(key text, transaction_id uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'money_idempotency_complete' LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;

-- One day's accrual (micro-minor units, as text) of a balance.
CREATE FUNCTION corebank_internal.interest_daily_micro(balance_minor bigint, accrued_micro text, method text,
                                                       rate_bp int, tiers jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'interest_daily_micro' LANGUAGE C IMMUTABLE;
CREATE FUNCTION corebank_internal.interest_micro_to_minor(micro text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'interest_micro_to_minor' LANGUAGE C IMMUTABLE STRICT;
CREATE FUNCTION corebank_internal.interest_effective_rate_bp(balance_minor bigint, rate_bp int, tiers jsonb) RETURNS int
    AS 'MODULE_PATHNAME', 'interest_effective_rate_bp' LANGUAGE C IMMUTABLE;
CREATE FUNCTION corebank_internal.money_apply_bp(amount_minor bigint, bp int) RETURNS bigint
    AS 'MODULE_PATHNAME', 'money_apply_bp' LANGUAGE C IMMUTABLE STRICT;
CREATE FUNCTION corebank_internal.fx_convert(amount_minor bigint, rate text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'fx_convert' LANGUAGE C IMMUTABLE STRICT;

-- private functions: request members, rules and rendering (PL/pgSQL and SQL)

-- The operator recorded by jobs run without a person.
CREATE FUNCTION corebank_internal.system_actor() RETURNS uuid
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT '00000000-0000-0000-0000-000000000000'::uuid $fn$;

CREATE FUNCTION corebank_internal.require_object(request jsonb, name text DEFAULT 'request') RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF request IS NULL OR jsonb_typeof(request) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a JSON object', name));
    END IF;
    RETURN request;
END
$fn$;

-- A UUID member (CBV00 when malformed); NULL when absent.
CREATE FUNCTION corebank_internal.json_uuid(request jsonb, key text) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value text := corebank_internal.json_text(request, key, 36);
BEGIN
    IF value IS NULL THEN
        RETURN NULL;
    END IF;
    IF value !~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a UUID', key));
    END IF;
    RETURN value::uuid;
END
$fn$;

-- An enumeration member, case-insensitive; NULL when absent or blank.
CREATE FUNCTION corebank_internal.json_enum(request jsonb, key text, allowed text[]) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value text := upper(btrim(corebank_internal.json_text(request, key, 40)));
BEGIN
    IF value IS NULL OR value = '' THEN
        RETURN NULL;
    END IF;
    IF NOT value = ANY (allowed) THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be one of %s', key, array_to_string(allowed, ', ')));
    END IF;
    RETURN value;
END
$fn$;

-- A trimmed text member; NULL when absent, null or blank.
CREATE FUNCTION corebank_internal.json_trimmed(request jsonb, key text, length_max int) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT nullif(btrim(corebank_internal.json_text(request, key, length_max)), '') $fn$;

-- An ISO 3166 alpha-2 country code, upper-cased.
CREATE FUNCTION corebank_internal.json_country(request jsonb, key text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value text := upper(corebank_internal.json_trimmed(request, key, 2));
BEGIN
    IF value !~ '^[A-Z]{2}$' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be an ISO 3166 alpha-2 country code such as ZW', key));
    END IF;
    RETURN value;
END
$fn$;

-- A required positive amount (amountMinor, or amount as a decimal).
CREATE FUNCTION corebank_internal.json_positive_amount(request jsonb) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    minor bigint := corebank_internal.json_amount_minor(request);
BEGIN
    IF minor IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'amountMinor: is required (or amount)');
    END IF;
    IF minor <= 0 THEN
        PERFORM corebank_internal.fail('CBV00', 'amountMinor: must be greater than zero');
    END IF;
    RETURN minor;
END
$fn$;

-- A channel code (default BRANCH).
CREATE FUNCTION corebank_internal.json_channel(request jsonb, fallback text DEFAULT 'BRANCH') RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value text := coalesce(corebank_internal.json_text(request, 'channel', 32), fallback);
BEGIN
    IF value !~ '^[A-Za-z0-9_.-]{1,32}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'channel: must be 1 to 32 of A-Z a-z 0-9 _ . -');
    END IF;
    RETURN upper(value);
END
$fn$;

CREATE FUNCTION corebank_internal.page_bounds(page int, size int) RETURNS int[]
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF coalesce(page, 0) NOT BETWEEN 0 AND 1000000 THEN
        PERFORM corebank_internal.fail('CBV00', 'page: must be from 0 to 1000000');
    END IF;
    IF coalesce(size, 25) NOT BETWEEN 1 AND 200 THEN
        PERFORM corebank_internal.fail('CBV00', 'size: must be from 1 to 200');
    END IF;
    RETURN ARRAY[coalesce(page, 0), coalesce(size, 25)];
END
$fn$;

-- The branch of a request: branchId or branchCode, else the actor's branch
-- (identity keeps staff branch codes), else `fallback`.
CREATE FUNCTION corebank_internal.request_branch(request jsonb, actor uuid, fallback uuid) RETURNS uuid
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    branch_text uuid := corebank_internal.json_uuid(request, 'branchId');
    branch_code text := upper(corebank_internal.json_text(request, 'branchCode', 10));
    found uuid;
BEGIN
    IF branch_text IS NOT NULL THEN
        SELECT b.id INTO found FROM corebank.branches b WHERE b.id = branch_text;
    ELSIF branch_code IS NOT NULL THEN
        SELECT b.id INTO found FROM corebank.branches b WHERE b.code = branch_code;
    ELSE
        SELECT b.id INTO found FROM corebank.branches b JOIN corebank.auth_users u ON u.branch_code = b.code
        WHERE u.id = actor AND b.active;
        found := coalesce(found, fallback, (SELECT b.id FROM corebank.branches b WHERE b.is_head_office));
    END IF;
    IF found IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Branch not found');
    END IF;
    RETURN found;
END
$fn$;

CREATE FUNCTION corebank_internal.money_text(amount_minor bigint, currency text) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT corebank_internal.amount_text(amount_minor, (SELECT c.minor_units FROM corebank.currencies c WHERE c.code = currency))
$fn$;

CREATE FUNCTION corebank_internal.gl_id(code text, currency text) RETURNS uuid
    LANGUAGE sql STABLE
    AS $fn$ SELECT g.id FROM corebank.gl_accounts g WHERE g.code = gl_id.code AND g.currency = gl_id.currency $fn$;

-- The ledger expression every view of an account reads (statement, balance
-- as of a date, passbook lines, interest): its posted journal entries, with
-- the customer-side signed amount (credits raise the balance).
CREATE FUNCTION corebank_internal.account_entries(account uuid)
    RETURNS TABLE (entry_id bigint, transaction_id uuid, value_date date, side char(1), amount_minor bigint,
                   signed_minor bigint, narrative text)
    LANGUAGE sql STABLE
    AS $fn$
    SELECT e.id, e.transaction_id, e.value_date, e.side, e.amount_minor,
           CASE WHEN e.side = 'C' THEN e.amount_minor ELSE -e.amount_minor END, e.narrative
    FROM corebank.journal_entries e
    WHERE e.ledger_account_id = account
$fn$;

CREATE FUNCTION corebank_internal.account_balance_as_of(account uuid, as_of date) RETURNS bigint
    LANGUAGE sql STABLE
    AS $fn$
    SELECT coalesce(sum(x.signed_minor), 0)::bigint FROM corebank_internal.account_entries(account) x
    WHERE x.value_date <= as_of
$fn$;

-- KYC status: VERIFIED with a verified, unexpired identity document.
CREATE FUNCTION corebank_internal.kyc_status(customer uuid) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT CASE WHEN EXISTS (
               SELECT FROM corebank.kyc_documents k
               WHERE k.customer_id = customer AND k.status = 'VERIFIED'
                 AND k.document_type IN ('NATIONAL_ID', 'PASSPORT', 'DRIVERS_LICENCE', 'COMPANY_REGISTRATION')
                 AND (k.expires_on IS NULL OR k.expires_on >= corebank_internal.business_today()))
           THEN 'VERIFIED' ELSE 'PENDING' END
$fn$;

-- Months to the next periodic review by risk category; NULL: none.
CREATE FUNCTION corebank_internal.review_months(risk text) RETURNS int
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT CASE risk WHEN 'LOW' THEN 36 WHEN 'MEDIUM' THEN 24 WHEN 'HIGH' THEN 12 END $fn$;

-- Rendering. Each returns the response object of one row, or NULL.

CREATE FUNCTION corebank_internal.customer_json(customer uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', c.id, 'customerNumber', c.customer_number, 'type', c.type, 'status', c.status,
                'displayName', CASE WHEN c.type = 'INDIVIDUAL' THEN concat_ws(' ', c.first_name, c.middle_name, c.last_name)
                                    ELSE c.legal_name END,
                'firstName', c.first_name, 'middleName', c.middle_name, 'lastName', c.last_name,
                'dateOfBirth', c.date_of_birth, 'gender', c.gender, 'nationalId', c.national_id,
                'nationality', c.nationality, 'legalName', c.legal_name, 'tradingName', c.trading_name,
                'registrationNumber', c.registration_number, 'incorporationDate', c.incorporation_date,
                'countryOfIncorporation', c.country_of_incorporation, 'email', p.email, 'phone', p.phone,
                'branchId', c.branch_id, 'branchCode', b.code, 'signingMandate', c.signing_mandate,
                'riskCategory', c.risk_category, 'kycStatus', corebank_internal.kyc_status(c.id),
                'nextReviewDate', c.next_review_date, 'lastReviewedAt', corebank_internal.iso_utc(c.last_reviewed_at),
                'createdAt', corebank_internal.iso_utc(c.created_at), 'createdBy', c.created_by,
                'updatedAt', corebank_internal.iso_utc(c.updated_at))
            FROM corebank.customers c
            JOIN corebank.branches b ON b.id = c.branch_id
            LEFT JOIN corebank.customer_profiles p ON p.customer_id = c.id
            WHERE c.id = customer);
END
$fn$;

CREATE FUNCTION corebank_internal.customer_profile_json(customer uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'customerId', c.id, 'email', p.email, 'phone', p.phone,
                'address', jsonb_build_object('line1', p.address_line1, 'line2', p.address_line2, 'city', p.city,
                                              'province', p.province, 'postalCode', p.postal_code,
                                              'country', p.country),
                'employment', jsonb_build_object('status', p.employment_status, 'employerName', p.employer_name,
                                                 'occupation', p.occupation),
                'declaredIncome', jsonb_build_object(
                    'amountMinor', p.declared_income_minor,
                    'amount', corebank_internal.money_text(p.declared_income_minor, p.income_currency),
                    'currency', p.income_currency, 'frequency', p.income_frequency),
                'updatedAt', corebank_internal.iso_utc(p.updated_at), 'updatedBy', p.updated_by)
            FROM corebank.customers c
            LEFT JOIN corebank.customer_profiles p ON p.customer_id = c.id
            WHERE c.id = customer);
END
$fn$;

CREATE FUNCTION corebank_internal.interaction_json(i corebank.customer_interactions) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', i.id, 'customerId', i.customer_id, 'channel', i.channel,
                              'interactionType', i.interaction_type, 'summary', i.summary, 'notes', i.notes,
                              'occurredAt', corebank_internal.iso_utc(i.occurred_at), 'recordedBy', i.recorded_by,
                              'recordedAt', corebank_internal.iso_utc(i.recorded_at))
$fn$;

CREATE FUNCTION corebank_internal.case_json(k corebank.customer_cases) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', k.id, 'customerId', k.customer_id, 'subject', k.subject,
                              'description', k.description, 'category', k.category, 'status', k.status,
                              'openedBy', k.opened_by, 'openedAt', corebank_internal.iso_utc(k.opened_at),
                              'resolvedBy', k.resolved_by, 'resolvedAt', corebank_internal.iso_utc(k.resolved_at),
                              'resolution', k.resolution)
$fn$;

CREATE FUNCTION corebank_internal.beneficial_owner_json(o corebank.beneficial_owners) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', o.id, 'customerId', o.customer_id, 'ownerCustomerId', o.owner_customer_id,
                              'fullName', o.full_name, 'dateOfBirth', o.date_of_birth, 'nationality', o.nationality,
                              'nationalId', o.national_id, 'ownershipBp', o.ownership_bp,
                              'ownershipPercent', corebank_internal.amount_text(o.ownership_bp::bigint, 2::smallint),
                              'hasControl', o.has_control, 'active', o.active,
                              'createdAt', corebank_internal.iso_utc(o.created_at), 'createdBy', o.created_by,
                              'removedAt', corebank_internal.iso_utc(o.removed_at), 'removedBy', o.removed_by)
$fn$;

CREATE FUNCTION corebank_internal.beneficiary_json(x corebank.beneficiaries) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', x.id, 'customerId', x.customer_id, 'name', x.name,
                              'accountNumber', x.account_number, 'bankSwiftCode', x.bank_swift_code,
                              'accountId', x.account_id, 'currency', x.currency, 'nickname', x.nickname,
                              'active', x.active, 'createdAt', corebank_internal.iso_utc(x.created_at),
                              'createdBy', x.created_by, 'removedAt', corebank_internal.iso_utc(x.removed_at))
$fn$;

CREATE FUNCTION corebank_internal.kyc_document_json(document uuid) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', k.id, 'customerId', k.customer_id, 'documentType', k.document_type,
                              'documentNumber', k.document_number, 'issuingCountry', k.issuing_country,
                              'issuedOn', k.issued_on, 'expiresOn', k.expires_on, 'status', k.status,
                              'submittedBy', k.submitted_by, 'submittedAt', corebank_internal.iso_utc(k.submitted_at),
                              'decidedBy', k.decided_by, 'decidedAt', corebank_internal.iso_utc(k.decided_at),
                              'decisionNote', k.decision_note, 'parkedChangeId', k.parked_change_id)
    FROM corebank.kyc_documents k WHERE k.id = document
$fn$;

CREATE FUNCTION corebank_internal.kyc_check_json(k corebank.kyc_checks) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', k.id, 'customerId', k.customer_id, 'checkType', k.check_type,
                              'providerMode', k.provider_mode, 'source', k.source, 'outcome', k.outcome,
                              'details', k.details, 'requestedBy', k.requested_by,
                              'requestedAt', corebank_internal.iso_utc(k.requested_at))
$fn$;

CREATE FUNCTION corebank_internal.kyc_profile_json(customer uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'customerId', c.id, 'riskCategory', c.risk_category, 'riskReason', c.risk_reason,
                'kycStatus', corebank_internal.kyc_status(c.id), 'nextReviewDate', c.next_review_date,
                'lastReviewedAt', corebank_internal.iso_utc(c.last_reviewed_at), 'lastReviewedBy', c.last_reviewed_by,
                'documents', (SELECT coalesce(jsonb_agg(corebank_internal.kyc_document_json(k.id)
                                                        ORDER BY k.submitted_at, k.id), '[]'::jsonb)
                              FROM corebank.kyc_documents k WHERE k.customer_id = c.id),
                'checks', (SELECT coalesce(jsonb_agg(corebank_internal.kyc_check_json(k) ORDER BY k.requested_at DESC, k.id),
                                           '[]'::jsonb)
                           FROM (SELECT * FROM corebank.kyc_checks x WHERE x.customer_id = c.id
                                 ORDER BY x.requested_at DESC, x.id LIMIT 50) k))
            FROM corebank.customers c WHERE c.id = customer);
END
$fn$;

CREATE FUNCTION corebank_internal.deposit_product_json(product uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', p.id, 'code', p.code, 'name', p.name, 'accountType', p.account_type, 'currency', p.currency,
                'interestMethod', p.interest_method, 'annualRateBp', p.annual_rate_bp,
                'annualRate', corebank_internal.amount_text(p.annual_rate_bp::bigint, 2::smallint),
                'tiers', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                                     'fromMinor', t.from_minor,
                                     'from', corebank_internal.money_text(t.from_minor, p.currency),
                                     'rateBp', t.rate_bp) ORDER BY t.from_minor), '[]'::jsonb)
                          FROM corebank.deposit_product_tiers t WHERE t.product_id = p.id),
                'dayCount', 'ACTUAL_365', 'interestPosting', 'MONTH_END', 'rounding', 'HALF_EVEN',
                'minimumBalanceMinor', p.minimum_balance_minor,
                'minimumBalance', corebank_internal.money_text(p.minimum_balance_minor, p.currency),
                'minimumOpeningMinor', p.minimum_opening_minor,
                'minimumOpening', corebank_internal.money_text(p.minimum_opening_minor, p.currency),
                'monthlyFeeMinor', p.monthly_fee_minor,
                'monthlyFee', corebank_internal.money_text(p.monthly_fee_minor, p.currency),
                'withdrawalFeeMinor', p.withdrawal_fee_minor,
                'withdrawalFee', corebank_internal.money_text(p.withdrawal_fee_minor, p.currency),
                'termDays', p.term_days, 'earlyWithdrawalPenaltyBp', p.early_withdrawal_penalty_bp,
                'dormancyDays', p.dormancy_days, 'requiresActivation', p.requires_activation,
                'internal', p.internal, 'glAccountCode', p.gl_account_code, 'active', p.active,
                'createdAt', corebank_internal.iso_utc(p.created_at), 'updatedAt', corebank_internal.iso_utc(p.updated_at))
            FROM corebank.deposit_products p WHERE p.id = product);
END
$fn$;

CREATE FUNCTION corebank_internal.account_json(account uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', a.id, 'accountNumber', a.account_number, 'name', a.name, 'customerId', d.customer_id,
                'customerNumber', c.customer_number, 'productId', p.id, 'productCode', p.code,
                'productName', p.name, 'accountType', d.account_type, 'currency', a.currency, 'status', a.status,
                'branchId', a.branch_id, 'branchCode', b.code, 'glAccountCode', g.code,
                'balanceMinor', a.balance_minor, 'balance', corebank_internal.money_text(a.balance_minor, a.currency),
                'availableBalanceMinor', x.available,
                'availableBalance', corebank_internal.money_text(x.available, a.currency),
                'minimumBalanceMinor', p.minimum_balance_minor, 'allowOverdraftMinor', a.allow_overdraft_minor,
                'accruedInterestMinor', d.accrued_minor,
                'accruedInterest', corebank_internal.money_text(d.accrued_minor, a.currency),
                'interestProcessedThrough', d.processed_through, 'openedOn', d.opened_on,
                'activatedAt', corebank_internal.iso_utc(d.activated_at), 'maturityDate', d.maturity_date,
                'lastCustomerActivityOn', d.last_customer_activity_on, 'dormantSince', d.dormant_since,
                'frozenReason', d.frozen_reason, 'closedAt', corebank_internal.iso_utc(d.closed_at),
                'closedBy', d.closed_by, 'createdAt', corebank_internal.iso_utc(a.created_at),
                'updatedAt', corebank_internal.iso_utc(greatest(a.updated_at, d.updated_at)))
            FROM corebank.deposit_accounts d
            JOIN corebank.ledger_accounts a ON a.id = d.id
            JOIN corebank.deposit_products p ON p.id = d.product_id
            JOIN corebank.gl_accounts g ON g.id = a.gl_account_id
            JOIN corebank.branches b ON b.id = a.branch_id
            LEFT JOIN corebank.customers c ON c.id = d.customer_id
            CROSS JOIN LATERAL (
                SELECT CASE WHEN a.status IN ('ACTIVE', 'DORMANT')
                            THEN greatest(least(a.balance_minor - p.minimum_balance_minor + a.allow_overdraft_minor,
                                                1000000000000000), 0)
                            ELSE 0 END::bigint AS available) x
            WHERE d.id = account);
END
$fn$;

CREATE FUNCTION corebank_internal.fx_rate_json(r corebank.exchange_rates, derived bool DEFAULT false) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', r.id,
                              'fromCurrency', CASE WHEN derived THEN r.to_currency ELSE r.from_currency END,
                              'toCurrency', CASE WHEN derived THEN r.from_currency ELSE r.to_currency END,
                              'rate', CASE WHEN derived THEN round(1 / r.rate, 10) ELSE r.rate END::text,
                              'effectiveDate', r.effective_date, 'derived', derived,
                              'createdAt', corebank_internal.iso_utc(r.created_at), 'createdBy', r.created_by)
$fn$;

-- The rate from -> to in force on a date: direct, else the inverse of the
-- opposite pair (derived). NULL row when none.
CREATE FUNCTION corebank_internal.fx_rate_in_force(from_currency text, to_currency text, on_date date,
                                                   OUT rate numeric, OUT rendered jsonb)
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    r corebank.exchange_rates;
BEGIN
    SELECT * INTO r FROM corebank.exchange_rates x
    WHERE x.from_currency = fx_rate_in_force.from_currency AND x.to_currency = fx_rate_in_force.to_currency
      AND x.effective_date <= on_date
    ORDER BY x.effective_date DESC LIMIT 1;
    IF FOUND THEN
        rate := r.rate;
        rendered := corebank_internal.fx_rate_json(r, false);
        RETURN;
    END IF;
    SELECT * INTO r FROM corebank.exchange_rates x
    WHERE x.from_currency = fx_rate_in_force.to_currency AND x.to_currency = fx_rate_in_force.from_currency
      AND x.effective_date <= on_date
    ORDER BY x.effective_date DESC LIMIT 1;
    IF FOUND THEN
        rate := round(1 / r.rate, 10);
        rendered := corebank_internal.fx_rate_json(r, true);
    END IF;
END
$fn$;

CREATE FUNCTION corebank_internal.standing_order_json(order_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', o.id, 'reference', o.reference, 'sourceAccountId', o.source_account_id,
                'sourceAccountNumber', s.account_number, 'targetAccountId', o.target_account_id,
                'targetAccountNumber', t.account_number, 'beneficiaryId', o.beneficiary_id,
                'amountMinor', o.amount_minor, 'amount', corebank_internal.money_text(o.amount_minor, o.currency),
                'currency', o.currency, 'frequency', o.frequency, 'startDate', o.start_date, 'endDate', o.end_date,
                'nextRunDate', CASE WHEN o.status IN ('ACTIVE', 'PAUSED') THEN o.next_run_date END,
                'lastRunDate', o.last_run_date, 'status', o.status, 'description', o.description,
                'consecutiveFailures', o.consecutive_failures, 'lastFailureReason', o.last_failure_reason,
                'createdBy', o.created_by, 'createdAt', corebank_internal.iso_utc(o.created_at),
                'updatedBy', o.updated_by, 'updatedAt', corebank_internal.iso_utc(o.updated_at))
            FROM corebank.standing_orders o
            JOIN corebank.ledger_accounts s ON s.id = o.source_account_id
            JOIN corebank.ledger_accounts t ON t.id = o.target_account_id
            WHERE o.id = order_id);
END
$fn$;

-- A passbook with its balances, all from the ledger expression.
CREATE FUNCTION corebank_internal.passbook_json(passbook uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    p corebank.passbooks;
    a corebank.ledger_accounts;
    opening bigint;
    printed bigint;
    printed_lines bigint;
    unprinted_lines bigint;
BEGIN
    SELECT * INTO p FROM corebank.passbooks x WHERE x.id = passbook;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    SELECT * INTO a FROM corebank.ledger_accounts x WHERE x.id = p.account_id;
    SELECT coalesce(sum(e.signed_minor) FILTER (WHERE e.entry_id <= p.starts_after_entry_id), 0),
           coalesce(sum(e.signed_minor) FILTER (WHERE e.entry_id > p.starts_after_entry_id
                                                  AND e.entry_id <= coalesce(p.printed_through_entry_id, 0)), 0),
           count(*) FILTER (WHERE e.entry_id > p.starts_after_entry_id
                              AND e.entry_id <= coalesce(p.printed_through_entry_id, 0)),
           count(*) FILTER (WHERE e.entry_id > greatest(p.starts_after_entry_id, coalesce(p.printed_through_entry_id, 0)))
    INTO opening, printed, printed_lines, unprinted_lines
    FROM corebank_internal.account_entries(p.account_id) e;
    RETURN jsonb_build_object(
        'id', p.id, 'accountId', p.account_id, 'accountNumber', a.account_number, 'currency', a.currency,
        'bookNumber', p.book_number, 'status', p.status, 'replacesId', p.replaces_id,
        'issuedAt', corebank_internal.iso_utc(p.issued_at), 'issuedBy', p.issued_by,
        'startsAfterEntryId', p.starts_after_entry_id, 'printedThroughEntryId', p.printed_through_entry_id,
        'printedLineCount', printed_lines, 'unprintedLineCount', unprinted_lines,
        'openingBalanceCents', opening, 'openingBalance', corebank_internal.money_text(opening, a.currency),
        'closingBalanceCents', opening + printed,
        'closingBalance', corebank_internal.money_text(opening + printed, a.currency),
        'ledgerBalanceCents', a.balance_minor, 'ledgerBalance', corebank_internal.money_text(a.balance_minor, a.currency),
        'lostAt', corebank_internal.iso_utc(p.lost_at), 'lostReason', p.lost_reason,
        'closedAt', corebank_internal.iso_utc(p.closed_at));
END
$fn$;

-- The deposit account and product behind an account id, for the money
-- functions; CB404 when it is not a deposit account. `lock` takes the
-- ledger row FOR UPDATE (the posting engine's lock, taken early).
CREATE FUNCTION corebank_internal.deposit_account_row(account uuid, field text, lock bool DEFAULT false,
    OUT account_id uuid, OUT account_number text, OUT currency text, OUT status text, OUT branch_id uuid,
    OUT customer_id uuid, OUT balance_minor bigint, OUT allow_overdraft_minor bigint, OUT account_type text,
    OUT internal bool, OUT minimum_balance_minor bigint, OUT withdrawal_fee_minor bigint,
    OUT penalty_bp int, OUT maturity_date date, OUT product_code text)
    LANGUAGE plpgsql
    AS $fn$
BEGIN
    IF account IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: is required', field));
    END IF;
    IF lock THEN
        PERFORM FROM corebank.ledger_accounts a WHERE a.id = account FOR UPDATE;
    END IF;
    SELECT a.id, a.account_number, a.currency::text, a.status, a.branch_id, d.customer_id, a.balance_minor,
           a.allow_overdraft_minor, d.account_type, p.internal, p.minimum_balance_minor, p.withdrawal_fee_minor,
           p.early_withdrawal_penalty_bp, d.maturity_date, p.code
    INTO account_id, account_number, currency, status, branch_id, customer_id, balance_minor, allow_overdraft_minor,
         account_type, internal, minimum_balance_minor, withdrawal_fee_minor, penalty_bp, maturity_date, product_code
    FROM corebank.deposit_accounts d
    JOIN corebank.ledger_accounts a ON a.id = d.id
    JOIN corebank.deposit_products p ON p.id = d.product_id
    WHERE d.id = account;
    IF account_id IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
END
$fn$;

-- Moves an account's status (the trigger decides whether the move is
-- allowed) and records it. The caller holds the ledger row lock.
CREATE FUNCTION corebank_internal.account_status_set(account uuid, to_status text, reason text, actor uuid)
    RETURNS void
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    from_status text;
    today date := corebank_internal.business_today();
BEGIN
    SELECT a.status INTO from_status FROM corebank.ledger_accounts a WHERE a.id = account FOR UPDATE;
    UPDATE corebank.ledger_accounts a SET status = to_status, updated_at = now() WHERE a.id = account;
    INSERT INTO corebank.account_status_history (account_id, from_status, to_status, reason, actor_id)
    VALUES (account, from_status, to_status, reason, actor);
    UPDATE corebank.deposit_accounts d
    SET dormant_since = CASE WHEN to_status = 'DORMANT' THEN today WHEN to_status = 'ACTIVE' THEN NULL
                             ELSE d.dormant_since END,
        -- Reactivation restarts the dormancy clock.
        last_customer_activity_on = CASE WHEN from_status = 'DORMANT' AND to_status = 'ACTIVE'
                                         THEN greatest(d.last_customer_activity_on, today)
                                         ELSE d.last_customer_activity_on END,
        frozen_reason = CASE WHEN to_status = 'FROZEN' THEN reason WHEN from_status = 'FROZEN' THEN NULL
                             ELSE d.frozen_reason END,
        frozen_at = CASE WHEN to_status = 'FROZEN' THEN now() WHEN from_status = 'FROZEN' THEN NULL ELSE d.frozen_at END,
        frozen_by = CASE WHEN to_status = 'FROZEN' THEN actor WHEN from_status = 'FROZEN' THEN NULL ELSE d.frozen_by END,
        activated_at = CASE WHEN from_status = 'PENDING_ACTIVATION' AND to_status = 'ACTIVE' THEN now()
                            ELSE d.activated_at END,
        activated_by = CASE WHEN from_status = 'PENDING_ACTIVATION' AND to_status = 'ACTIVE' THEN actor
                            ELSE d.activated_by END,
        closed_at = CASE WHEN to_status = 'CLOSED' THEN now() ELSE d.closed_at END,
        closed_by = CASE WHEN to_status = 'CLOSED' THEN actor ELSE d.closed_by END,
        close_reason = CASE WHEN to_status = 'CLOSED' THEN reason ELSE d.close_reason END,
        updated_at = now()
    WHERE d.id = account;
END
$fn$;

-- customers: writes

-- A profile leaf of a PATCH: trimmed text, or NULL for null/blank; the
-- message names the full path ("address.city: ...").
CREATE FUNCTION corebank_internal.patch_text(obj jsonb, key text, path text, length_max int) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value jsonb := obj -> key;
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(value) <> 'string' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a string', path));
    END IF;
    IF length(btrim(value #>> '{}')) > length_max THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be at most %s characters', path, length_max));
    END IF;
    RETURN nullif(btrim(value #>> '{}'), '');
END
$fn$;

-- The nested object of a PATCH member: NULL when the member is omitted,
-- '{}'::jsonb flagged by `clear` when it is null or blank (clear every
-- field), the object otherwise. Unknown members are refused.
CREATE FUNCTION corebank_internal.patch_object(patch jsonb, key text, allowed text[], OUT obj jsonb, OUT clear bool)
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value jsonb := patch -> key;
    member text;
BEGIN
    clear := false;
    IF value IS NULL THEN
        RETURN;
    END IF;
    IF jsonb_typeof(value) = 'null' OR (jsonb_typeof(value) = 'string' AND btrim(value #>> '{}') = '') THEN
        clear := true;
        obj := '{}'::jsonb;
        RETURN;
    END IF;
    IF jsonb_typeof(value) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be an object', key));
    END IF;
    FOR member IN SELECT jsonb_object_keys(value) LOOP
        IF NOT member = ANY (allowed) THEN
            PERFORM corebank_internal.fail('CBV00', format('%s.%s: unknown field', key, member));
        END IF;
    END LOOP;
    obj := value;
END
$fn$;

-- Applies a profile PATCH: an omitted member is left alone, a null or blank
-- one is cleared, identity fields and unknown members are refused.
CREATE FUNCTION corebank_internal.customer_profile_apply(customer uuid, patch jsonb, actor uuid) RETURNS void
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    identity_fields CONSTANT text[] := ARRAY['id', 'type', 'customerNumber', 'firstName', 'middleName', 'lastName',
        'dateOfBirth', 'gender', 'nationalId', 'nationality', 'legalName', 'tradingName', 'registrationNumber',
        'incorporationDate', 'countryOfIncorporation', 'status', 'riskCategory', 'signingMandate'];
    profile_fields CONSTANT text[] := ARRAY['email', 'phone', 'address', 'employment', 'declaredIncome'];
    p corebank.customer_profiles;
    member text;
    part record;
    income jsonb;
    amount bigint;
BEGIN
    IF patch IS NULL OR jsonb_typeof(patch) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'profile: must be a JSON object');
    END IF;
    FOR member IN SELECT jsonb_object_keys(patch) LOOP
        IF member = ANY (identity_fields) THEN
            PERFORM corebank_internal.fail('CBV00', format('%s: identity fields cannot be changed through the profile', member));
        END IF;
        IF NOT member = ANY (profile_fields) THEN
            PERFORM corebank_internal.fail('CBV00', format('%s: unknown field', member));
        END IF;
    END LOOP;

    INSERT INTO corebank.customer_profiles (customer_id, updated_by) VALUES (customer, actor)
    ON CONFLICT (customer_id) DO NOTHING;
    SELECT * INTO p FROM corebank.customer_profiles x WHERE x.customer_id = customer FOR UPDATE;

    IF patch ? 'email' THEN
        p.email := lower(corebank_internal.patch_text(patch, 'email', 'email', 254));
        IF p.email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' THEN
            PERFORM corebank_internal.fail('CBV00', 'email: must be an email address');
        END IF;
    END IF;
    IF patch ? 'phone' THEN
        p.phone := corebank_internal.patch_text(patch, 'phone', 'phone', 16);
        IF p.phone !~ '^\+?[0-9]{10,15}$' THEN
            PERFORM corebank_internal.fail('CBV00', 'phone: must be 10 to 15 digits, optionally after +');
        END IF;
    END IF;

    SELECT * INTO part FROM corebank_internal.patch_object(patch, 'address',
        ARRAY['line1', 'line2', 'city', 'province', 'postalCode', 'country']);
    IF part.obj IS NOT NULL THEN
        IF part.clear OR part.obj ? 'line1' THEN p.address_line1 := corebank_internal.patch_text(part.obj, 'line1', 'address.line1', 200); END IF;
        IF part.clear OR part.obj ? 'line2' THEN p.address_line2 := corebank_internal.patch_text(part.obj, 'line2', 'address.line2', 200); END IF;
        IF part.clear OR part.obj ? 'city' THEN p.city := corebank_internal.patch_text(part.obj, 'city', 'address.city', 100); END IF;
        IF part.clear OR part.obj ? 'province' THEN p.province := corebank_internal.patch_text(part.obj, 'province', 'address.province', 100); END IF;
        IF part.clear OR part.obj ? 'postalCode' THEN p.postal_code := corebank_internal.patch_text(part.obj, 'postalCode', 'address.postalCode', 20); END IF;
        IF part.clear OR part.obj ? 'country' THEN
            p.country := upper(corebank_internal.patch_text(part.obj, 'country', 'address.country', 2));
            IF p.country !~ '^[A-Z]{2}$' THEN
                PERFORM corebank_internal.fail('CBV00', 'address.country: must be an ISO 3166 alpha-2 country code such as ZW');
            END IF;
        END IF;
    END IF;

    SELECT * INTO part FROM corebank_internal.patch_object(patch, 'employment', ARRAY['status', 'employerName', 'occupation']);
    IF part.obj IS NOT NULL THEN
        IF part.clear OR part.obj ? 'status' THEN
            p.employment_status := upper(corebank_internal.patch_text(part.obj, 'status', 'employment.status', 20));
            IF p.employment_status NOT IN ('EMPLOYED', 'SELF_EMPLOYED', 'UNEMPLOYED', 'RETIRED', 'STUDENT') THEN
                PERFORM corebank_internal.fail('CBV00',
                    'employment.status: must be one of EMPLOYED, SELF_EMPLOYED, UNEMPLOYED, RETIRED, STUDENT');
            END IF;
        END IF;
        IF part.clear OR part.obj ? 'employerName' THEN p.employer_name := corebank_internal.patch_text(part.obj, 'employerName', 'employment.employerName', 200); END IF;
        IF part.clear OR part.obj ? 'occupation' THEN p.occupation := corebank_internal.patch_text(part.obj, 'occupation', 'employment.occupation', 100); END IF;
    END IF;

    SELECT * INTO part FROM corebank_internal.patch_object(patch, 'declaredIncome',
        ARRAY['amountMinor', 'amount', 'currency', 'frequency']);
    IF part.obj IS NOT NULL THEN
        income := part.obj;
        IF part.clear OR income ? 'amountMinor' OR income ? 'amount' THEN
            -- A blank amount clears it, like every other member.
            IF jsonb_typeof(income -> 'amount') = 'string' AND btrim(income ->> 'amount') = '' THEN
                income := income - 'amount';
            END IF;
            amount := corebank_internal.json_amount_minor(income);
            p.declared_income_minor := amount;
        END IF;
        IF part.clear OR income ? 'currency' THEN
            p.income_currency := upper(corebank_internal.patch_text(income, 'currency', 'declaredIncome.currency', 3));
            IF p.income_currency IS NOT NULL
               AND NOT EXISTS (SELECT FROM corebank.currencies c WHERE c.code = p.income_currency) THEN
                PERFORM corebank_internal.fail('CBV00', 'declaredIncome.currency: must be USD or ZWG');
            END IF;
        END IF;
        IF part.clear OR income ? 'frequency' THEN
            p.income_frequency := upper(corebank_internal.patch_text(income, 'frequency', 'declaredIncome.frequency', 10));
            IF p.income_frequency NOT IN ('MONTHLY', 'ANNUAL') THEN
                PERFORM corebank_internal.fail('CBV00', 'declaredIncome.frequency: must be one of MONTHLY, ANNUAL');
            END IF;
        END IF;
        -- An income is an amount with its currency and frequency.
        IF p.declared_income_minor IS NULL THEN
            p.income_currency := NULL;
            p.income_frequency := NULL;
        ELSE
            p.income_currency := coalesce(p.income_currency, (SELECT c.base_currency FROM corebank.platform_config c));
            p.income_frequency := coalesce(p.income_frequency, 'MONTHLY');
        END IF;
    END IF;

    UPDATE corebank.customer_profiles x
    SET email = p.email, phone = p.phone, address_line1 = p.address_line1, address_line2 = p.address_line2,
        city = p.city, province = p.province, postal_code = p.postal_code, country = p.country,
        employment_status = p.employment_status, employer_name = p.employer_name, occupation = p.occupation,
        declared_income_minor = p.declared_income_minor, income_currency = p.income_currency,
        income_frequency = p.income_frequency, updated_at = now(), updated_by = actor
    WHERE x.customer_id = customer;
    UPDATE corebank.customers c SET updated_at = now(), updated_by = actor WHERE c.id = customer;
END
$fn$;

-- CreateCustomerRequest (docs/design/deposits.md).
CREATE FUNCTION corebank.core_customers_create(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    individual_fields CONSTANT text[] := ARRAY['firstName', 'middleName', 'lastName', 'dateOfBirth', 'gender',
                                               'nationalId', 'nationality'];
    corporate_fields CONSTANT text[] := ARRAY['legalName', 'tradingName', 'registrationNumber', 'incorporationDate',
                                              'countryOfIncorporation', 'signingMandate'];
    kind text;
    today date := corebank_internal.business_today();
    c corebank.customers;
    member text;
    profile jsonb;
    new_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    kind := corebank_internal.json_enum(request, 'type', ARRAY['INDIVIDUAL', 'CORPORATE']);
    IF kind IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'type: is required (INDIVIDUAL or CORPORATE)');
    END IF;
    FOREACH member IN ARRAY CASE WHEN kind = 'INDIVIDUAL' THEN corporate_fields ELSE individual_fields END LOOP
        IF request ? member AND jsonb_typeof(request -> member) <> 'null' THEN
            PERFORM corebank_internal.fail('CBV00', format('%s: does not apply to a customer of type %s', member, kind));
        END IF;
    END LOOP;
    c.type := kind;
    c.risk_category := coalesce(corebank_internal.json_enum(request, 'riskCategory',
                                                            ARRAY['LOW', 'MEDIUM', 'HIGH', 'PROHIBITED']), 'LOW');
    c.branch_id := corebank_internal.request_branch(request, actor, NULL);
    IF kind = 'INDIVIDUAL' THEN
        c.first_name := corebank_internal.json_trimmed(request, 'firstName', 100);
        c.middle_name := corebank_internal.json_trimmed(request, 'middleName', 100);
        c.last_name := corebank_internal.json_trimmed(request, 'lastName', 100);
        c.date_of_birth := corebank_internal.json_date(request, 'dateOfBirth');
        c.gender := corebank_internal.json_enum(request, 'gender', ARRAY['MALE', 'FEMALE', 'OTHER']);
        c.national_id := upper(corebank_internal.json_trimmed(request, 'nationalId', 50));
        c.nationality := corebank_internal.json_country(request, 'nationality');
        IF c.first_name IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'firstName: is required'); END IF;
        IF c.last_name IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'lastName: is required'); END IF;
        IF c.date_of_birth IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'dateOfBirth: is required'); END IF;
        IF c.date_of_birth > today OR c.date_of_birth < DATE '1900-01-01' THEN
            PERFORM corebank_internal.fail('CBV00', 'dateOfBirth: must be a past date after 1900-01-01');
        END IF;
    ELSE
        c.legal_name := corebank_internal.json_trimmed(request, 'legalName', 200);
        c.trading_name := corebank_internal.json_trimmed(request, 'tradingName', 200);
        c.registration_number := upper(corebank_internal.json_trimmed(request, 'registrationNumber', 50));
        c.incorporation_date := corebank_internal.json_date(request, 'incorporationDate');
        c.country_of_incorporation := corebank_internal.json_country(request, 'countryOfIncorporation');
        c.signing_mandate := corebank_internal.json_enum(request, 'signingMandate', ARRAY['ANY_ONE', 'ANY_TWO', 'ALL']);
        IF c.legal_name IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'legalName: is required'); END IF;
        IF c.registration_number IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'registrationNumber: is required'); END IF;
        IF c.incorporation_date > today OR c.incorporation_date < DATE '1800-01-01' THEN
            PERFORM corebank_internal.fail('CBV00', 'incorporationDate: must be a past date');
        END IF;
    END IF;

    INSERT INTO corebank.customers AS x (customer_number, type, first_name, middle_name, last_name, date_of_birth,
        gender, national_id, nationality, legal_name, trading_name, registration_number, incorporation_date,
        country_of_incorporation, branch_id, signing_mandate, risk_category, risk_set_at, risk_set_by,
        next_review_date, created_by, updated_by)
    VALUES ('CU' || lpad(nextval('corebank.customer_number_seq')::text, 10, '0'), c.type, c.first_name,
            c.middle_name, c.last_name, c.date_of_birth, c.gender, c.national_id, c.nationality, c.legal_name,
            c.trading_name, c.registration_number, c.incorporation_date, c.country_of_incorporation, c.branch_id,
            c.signing_mandate, c.risk_category, now(), actor,
            (today + make_interval(months => corebank_internal.review_months(c.risk_category)))::date, actor, actor)
    ON CONFLICT DO NOTHING
    RETURNING x.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', CASE WHEN kind = 'INDIVIDUAL'
                                                     THEN 'A customer with this national id already exists'
                                                     ELSE 'A customer with this registration number already exists' END);
    END IF;

    profile := coalesce(request -> 'profile', '{}'::jsonb);
    IF jsonb_typeof(profile) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'profile: must be an object');
    END IF;
    IF request ? 'email' THEN profile := profile || jsonb_build_object('email', request -> 'email'); END IF;
    IF request ? 'phone' THEN profile := profile || jsonb_build_object('phone', request -> 'phone'); END IF;
    PERFORM corebank_internal.customer_profile_apply(new_id, profile, actor);
    RETURN corebank_internal.customer_json(new_id);
END
$fn$;

CREATE FUNCTION corebank_internal.require_customer(customer uuid, lock bool DEFAULT false) RETURNS corebank.customers
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    c corebank.customers;
BEGIN
    IF customer IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    IF lock THEN
        SELECT * INTO c FROM corebank.customers x WHERE x.id = customer FOR UPDATE;
    ELSE
        SELECT * INTO c FROM corebank.customers x WHERE x.id = customer;
    END IF;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Customer not found');
    END IF;
    RETURN c;
END
$fn$;

CREATE FUNCTION corebank.core_customers_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_customer(id);
    RETURN corebank_internal.customer_json(id);
END
$fn$;

-- Filter: {type?, status?, riskCategory?, q? (name or number contains), page?, size?}.
CREATE FUNCTION corebank.core_customers_list(filter jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    f jsonb := corebank_internal.require_object(coalesce(filter, '{}'::jsonb), 'filter');
    kind text := corebank_internal.json_enum(f, 'type', ARRAY['INDIVIDUAL', 'CORPORATE']);
    wanted_status text := corebank_internal.json_enum(f, 'status', ARRAY['ACTIVE', 'INACTIVE']);
    risk text := corebank_internal.json_enum(f, 'riskCategory', ARRAY['LOW', 'MEDIUM', 'HIGH', 'PROHIBITED']);
    q text := corebank_internal.json_trimmed(f, 'q', 100);
    bounds int[] := corebank_internal.page_bounds(corebank_internal.json_int(f, 'page', 0, 1000000)::int,
                                                  corebank_internal.json_int(f, 'size', 1, 200)::int);
    pattern text;
    total bigint;
    content jsonb;
BEGIN
    pattern := '%' || replace(replace(replace(lower(q), '\', '\\'), '%', '\%'), '_', '\_') || '%';
    WITH hits AS MATERIALIZED (
        SELECT c.id, c.customer_number FROM corebank.customers c
        WHERE (kind IS NULL OR c.type = kind) AND (wanted_status IS NULL OR c.status = wanted_status)
          AND (risk IS NULL OR c.risk_category = risk)
          AND (q IS NULL OR lower(concat_ws(' ', c.customer_number, c.first_name, c.middle_name, c.last_name,
                                            c.legal_name, c.trading_name)) LIKE pattern)
    ), chosen AS (
        SELECT h.id, h.customer_number FROM hits h ORDER BY h.customer_number
        LIMIT bounds[2] OFFSET bounds[1]::bigint * bounds[2]
    )
    SELECT (SELECT count(*) FROM hits),
           (SELECT jsonb_agg(corebank_internal.customer_json(x.id) ORDER BY x.customer_number) FROM chosen x)
    INTO total, content;
    RETURN corebank_internal.page_json(content, bounds[1], bounds[2], total);
END
$fn$;

-- UpdateSigningMandateRequest {signingMandate}: stored only.
CREATE FUNCTION corebank.core_customers_signing_mandate_set(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    c corebank.customers;
    mandate text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    mandate := corebank_internal.json_enum(request, 'signingMandate', ARRAY['ANY_ONE', 'ANY_TWO', 'ALL']);
    IF mandate IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'signingMandate: is required (ANY_ONE, ANY_TWO or ALL)');
    END IF;
    c := corebank_internal.require_customer(id, true);
    IF c.type <> 'CORPORATE' THEN
        PERFORM corebank_internal.fail('CB422', 'A signing mandate applies to corporate customers only');
    END IF;
    UPDATE corebank.customers x SET signing_mandate = mandate, updated_at = now(), updated_by = actor WHERE x.id = id;
    RETURN corebank_internal.customer_json(id);
END
$fn$;

CREATE FUNCTION corebank.core_customers_profile_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_customer(id);
    RETURN corebank_internal.customer_profile_json(id);
END
$fn$;

CREATE FUNCTION corebank.core_customers_profile_patch(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    PERFORM corebank_internal.require_customer(id, true);
    PERFORM corebank_internal.customer_profile_apply(id, request, actor);
    RETURN corebank_internal.customer_profile_json(id);
END
$fn$;

-- interaction log (append-only)

CREATE FUNCTION corebank.core_customers_interaction_add(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    i corebank.customer_interactions;
    occurred text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    PERFORM corebank_internal.require_customer(id);
    i.channel := coalesce(corebank_internal.json_enum(request, 'channel',
                          ARRAY['BRANCH', 'PHONE', 'EMAIL', 'SMS', 'MOBILE', 'WEB', 'OTHER']), 'BRANCH');
    i.interaction_type := corebank_internal.json_enum(request, 'interactionType',
                          ARRAY['ENQUIRY', 'COMPLAINT', 'SERVICE_REQUEST', 'SALES', 'KYC', 'OTHER']);
    i.summary := corebank_internal.json_trimmed(request, 'summary', 500);
    i.notes := corebank_internal.json_trimmed(request, 'notes', 4000);
    occurred := corebank_internal.json_text(request, 'occurredAt', 40);
    IF i.interaction_type IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'interactionType: is required');
    END IF;
    IF i.summary IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'summary: is required');
    END IF;
    IF occurred IS NOT NULL THEN
        IF occurred !~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$' THEN
            PERFORM corebank_internal.fail('CBV00', 'occurredAt: must be an ISO 8601 timestamp with a zone');
        END IF;
        BEGIN
            i.occurred_at := occurred::timestamptz;
        EXCEPTION WHEN OTHERS THEN
            PERFORM corebank_internal.fail('CBV00', 'occurredAt: must be an ISO 8601 timestamp with a zone');
        END;
        IF i.occurred_at > now() + interval '5 minutes' THEN
            PERFORM corebank_internal.fail('CBV00', 'occurredAt: must not be in the future');
        END IF;
    END IF;
    INSERT INTO corebank.customer_interactions AS x (customer_id, channel, interaction_type, summary, notes,
                                                     occurred_at, recorded_by)
    VALUES (id, i.channel, i.interaction_type, i.summary, i.notes, coalesce(i.occurred_at, now()), actor)
    RETURNING x.* INTO i;
    RETURN corebank_internal.interaction_json(i);
END
$fn$;

CREATE FUNCTION corebank.core_customers_interactions_list(id uuid, page int, size int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    bounds int[] := corebank_internal.page_bounds(page, size);
    total bigint;
    content jsonb;
BEGIN
    PERFORM corebank_internal.require_customer(id);
    SELECT count(*) INTO total FROM corebank.customer_interactions i WHERE i.customer_id = id;
    SELECT jsonb_agg(corebank_internal.interaction_json(x) ORDER BY x.recorded_at DESC, x.id) INTO content
    FROM (SELECT * FROM corebank.customer_interactions i WHERE i.customer_id = id
          ORDER BY i.recorded_at DESC, i.id LIMIT bounds[2] OFFSET bounds[1]::bigint * bounds[2]) x;
    RETURN corebank_internal.page_json(content, bounds[1], bounds[2], total);
END
$fn$;

-- CIF cases

CREATE FUNCTION corebank.core_customers_case_open(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    k corebank.customer_cases;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    PERFORM corebank_internal.require_customer(id);
    k.subject := corebank_internal.json_trimmed(request, 'subject', 200);
    IF k.subject IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'subject: is required');
    END IF;
    INSERT INTO corebank.customer_cases AS x (customer_id, subject, description, category, opened_by)
    VALUES (id, k.subject, corebank_internal.json_trimmed(request, 'description', 4000),
            upper(corebank_internal.json_trimmed(request, 'category', 50)), actor)
    RETURNING x.* INTO k;
    RETURN corebank_internal.case_json(k);
END
$fn$;

CREATE FUNCTION corebank.core_customers_cases_list(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_customer(id);
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.case_json(k) ORDER BY k.opened_at DESC, k.id), '[]'::jsonb)
            FROM (SELECT * FROM corebank.customer_cases x WHERE x.customer_id = id
                  ORDER BY x.opened_at DESC, x.id LIMIT 1000) k);
END
$fn$;

-- {resolution}: OPEN -> RESOLVED, stamped with the actor; RESOLVED is terminal.
CREATE FUNCTION corebank.core_customers_case_resolve(id uuid, case_id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    k corebank.customer_cases;
    resolution text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    resolution := corebank_internal.json_trimmed(request, 'resolution', 4000);
    IF resolution IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'resolution: is required');
    END IF;
    SELECT * INTO k FROM corebank.customer_cases x WHERE x.id = case_id AND x.customer_id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Case not found');
    END IF;
    IF k.status = 'RESOLVED' THEN
        PERFORM corebank_internal.fail('CB409', 'The case is already RESOLVED');
    END IF;
    UPDATE corebank.customer_cases x
    SET status = 'RESOLVED', resolved_by = actor, resolved_at = now(), resolution = resolution
    WHERE x.id = case_id
    RETURNING x.* INTO k;
    RETURN corebank_internal.case_json(k);
END
$fn$;

-- beneficial owners

-- {ownerCustomerId? | fullName, dateOfBirth?, nationality?, nationalId?,
--  ownershipPercent? | ownershipBp?, hasControl?}
CREATE FUNCTION corebank.core_customers_beneficial_owner_add(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    c corebank.customers;
    owner corebank.customers;
    o corebank.beneficial_owners;
    percent_text text;
    held bigint;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    -- The corporate's row lock serialises additions, so the 100% total holds.
    c := corebank_internal.require_customer(id, true);
    IF c.type <> 'CORPORATE' THEN
        PERFORM corebank_internal.fail('CB422', 'Beneficial owners are recorded for corporate customers only');
    END IF;
    o.owner_customer_id := corebank_internal.json_uuid(request, 'ownerCustomerId');
    o.full_name := corebank_internal.json_trimmed(request, 'fullName', 200);
    o.date_of_birth := corebank_internal.json_date(request, 'dateOfBirth');
    o.nationality := corebank_internal.json_country(request, 'nationality');
    o.national_id := upper(corebank_internal.json_trimmed(request, 'nationalId', 50));
    o.has_control := coalesce(corebank_internal.json_bool(request, 'hasControl'), false);
    o.ownership_bp := corebank_internal.json_int(request, 'ownershipBp', 0, 10000);
    IF jsonb_typeof(request -> 'ownershipPercent') IN ('number', 'string') THEN
        percent_text := request ->> 'ownershipPercent';
        IF percent_text !~ '^[0-9]{1,3}(\.[0-9]{1,2})?$' OR percent_text::numeric > 100 THEN
            PERFORM corebank_internal.fail('CBV00', 'ownershipPercent: must be a percentage from 0 to 100 with at most 2 decimals');
        END IF;
        IF o.ownership_bp IS NOT NULL AND o.ownership_bp <> (percent_text::numeric * 100)::int THEN
            PERFORM corebank_internal.fail('CBV00', 'ownershipPercent: does not match ownershipBp');
        END IF;
        o.ownership_bp := (percent_text::numeric * 100)::int;
    END IF;
    o.ownership_bp := coalesce(o.ownership_bp, 0);
    IF o.owner_customer_id IS NOT NULL THEN
        SELECT * INTO owner FROM corebank.customers x WHERE x.id = o.owner_customer_id;
        IF NOT FOUND THEN
            PERFORM corebank_internal.fail('CB404', 'Owner customer not found');
        END IF;
        IF owner.type <> 'INDIVIDUAL' THEN
            PERFORM corebank_internal.fail('CB422', 'A beneficial owner is an individual');
        END IF;
        o.full_name := coalesce(o.full_name, concat_ws(' ', owner.first_name, owner.middle_name, owner.last_name));
        o.date_of_birth := coalesce(o.date_of_birth, owner.date_of_birth);
        o.nationality := coalesce(o.nationality, owner.nationality);
        o.national_id := coalesce(o.national_id, owner.national_id);
        IF EXISTS (SELECT FROM corebank.beneficial_owners x
                   WHERE x.customer_id = id AND x.owner_customer_id = o.owner_customer_id AND x.active) THEN
            PERFORM corebank_internal.fail('CB409', 'This person is already a beneficial owner of the customer');
        END IF;
    END IF;
    IF o.full_name IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'fullName: is required (or ownerCustomerId)');
    END IF;
    IF o.ownership_bp < 2500 AND NOT o.has_control THEN
        PERFORM corebank_internal.fail('CB422', 'A beneficial owner owns 25% or more, or has control');
    END IF;
    SELECT coalesce(sum(x.ownership_bp), 0) INTO held FROM corebank.beneficial_owners x
    WHERE x.customer_id = id AND x.active;
    IF held + o.ownership_bp > 10000 THEN
        PERFORM corebank_internal.fail('CB422', format('Beneficial ownership would exceed 100%% (%s%% is recorded)',
                                                       corebank_internal.amount_text(held, 2::smallint)));
    END IF;
    INSERT INTO corebank.beneficial_owners AS x (customer_id, owner_customer_id, full_name, date_of_birth, nationality,
                                                 national_id, ownership_bp, has_control, created_by)
    VALUES (id, o.owner_customer_id, o.full_name, o.date_of_birth, o.nationality, o.national_id, o.ownership_bp,
            o.has_control, actor)
    RETURNING x.* INTO o;
    RETURN corebank_internal.beneficial_owner_json(o);
END
$fn$;

CREATE FUNCTION corebank.core_customers_beneficial_owners_list(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_customer(id);
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.beneficial_owner_json(o) ORDER BY o.created_at, o.id), '[]'::jsonb)
            FROM corebank.beneficial_owners o WHERE o.customer_id = id AND o.active);
END
$fn$;

CREATE FUNCTION corebank.core_customers_beneficial_owner_remove(id uuid, owner_id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    o corebank.beneficial_owners;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    UPDATE corebank.beneficial_owners x SET active = false, removed_at = now(), removed_by = actor
    WHERE x.id = owner_id AND x.customer_id = id AND x.active
    RETURNING x.* INTO o;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Beneficial owner not found');
    END IF;
    RETURN corebank_internal.beneficial_owner_json(o);
END
$fn$;

-- beneficiaries

-- {name, accountNumber, bankSwiftCode? (absent: an account of this bank),
--  currency? (required for another bank), nickname?}
CREATE FUNCTION corebank.core_customers_beneficiary_add(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.beneficiaries;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    PERFORM corebank_internal.require_customer(id);
    b.name := corebank_internal.json_trimmed(request, 'name', 200);
    b.account_number := upper(corebank_internal.json_trimmed(request, 'accountNumber', 34));
    b.bank_swift_code := upper(corebank_internal.json_trimmed(request, 'bankSwiftCode', 11));
    b.nickname := corebank_internal.json_trimmed(request, 'nickname', 100);
    b.currency := upper(corebank_internal.json_trimmed(request, 'currency', 3));
    IF b.name IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'name: is required'); END IF;
    IF b.account_number IS NULL OR b.account_number !~ '^[A-Z0-9-]{1,34}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'accountNumber: must be 1 to 34 of A-Z 0-9 -');
    END IF;
    IF b.bank_swift_code !~ '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$' THEN
        PERFORM corebank_internal.fail('CBV00', 'bankSwiftCode: must be a SWIFT/BIC code of 8 or 11 characters');
    END IF;
    IF b.currency IS NOT NULL AND NOT EXISTS (SELECT FROM corebank.currencies c WHERE c.code = b.currency) THEN
        PERFORM corebank_internal.fail('CBV00', 'currency: must be USD or ZWG');
    END IF;
    IF b.bank_swift_code IS NULL THEN
        SELECT a.id, a.currency INTO b.account_id, b.currency FROM corebank.ledger_accounts a
        WHERE upper(a.account_number) = b.account_number;
        IF b.account_id IS NULL THEN
            PERFORM corebank_internal.fail('CB404', 'No account with this number in this bank');
        END IF;
        IF corebank_internal.json_trimmed(request, 'currency', 3) IS NOT NULL
           AND upper(corebank_internal.json_trimmed(request, 'currency', 3)) <> b.currency THEN
            PERFORM corebank_internal.fail('CB422', format('The account is in %s', b.currency));
        END IF;
    ELSIF b.currency IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'currency: is required for an account at another bank');
    END IF;
    INSERT INTO corebank.beneficiaries AS x (customer_id, name, account_number, bank_swift_code, account_id, currency,
                                             nickname, created_by)
    VALUES (id, b.name, b.account_number, b.bank_swift_code, b.account_id, b.currency, b.nickname, actor)
    RETURNING x.* INTO b;
    RETURN corebank_internal.beneficiary_json(b);
END
$fn$;

CREATE FUNCTION corebank.core_customers_beneficiaries_list(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_customer(id);
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.beneficiary_json(b) ORDER BY b.created_at, b.id), '[]'::jsonb)
            FROM corebank.beneficiaries b WHERE b.customer_id = id AND b.active);
END
$fn$;

CREATE FUNCTION corebank.core_customers_beneficiary_remove(id uuid, beneficiary_id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.beneficiaries;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    UPDATE corebank.beneficiaries x SET active = false, removed_at = now(), removed_by = actor
    WHERE x.id = beneficiary_id AND x.customer_id = id AND x.active
    RETURNING x.* INTO b;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Beneficiary not found');
    END IF;
    RETURN corebank_internal.beneficiary_json(b);
END
$fn$;

-- KYC

CREATE FUNCTION corebank.core_customers_kyc_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_customer(id);
    RETURN corebank_internal.kyc_profile_json(id);
END
$fn$;

-- {riskCategory, reason?}: the next review is rescheduled from the last
-- review (or today) by the category's interval; PROHIBITED has none.
CREATE FUNCTION corebank.core_customers_kyc_risk_set(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    c corebank.customers;
    risk text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    risk := corebank_internal.json_enum(request, 'riskCategory', ARRAY['LOW', 'MEDIUM', 'HIGH', 'PROHIBITED']);
    IF risk IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'riskCategory: is required (LOW, MEDIUM, HIGH or PROHIBITED)');
    END IF;
    c := corebank_internal.require_customer(id, true);
    UPDATE corebank.customers x
    SET risk_category = risk, risk_reason = corebank_internal.json_trimmed(request, 'reason', 500),
        risk_set_at = now(), risk_set_by = actor,
        next_review_date = (coalesce(x.last_reviewed_at::date, corebank_internal.business_today())
                            + make_interval(months => corebank_internal.review_months(risk)))::date,
        updated_at = now(), updated_by = actor
    WHERE x.id = id;
    RETURN corebank_internal.kyc_profile_json(id);
END
$fn$;

-- {notes?, nextReviewDate?}: a periodic review done now.
CREATE FUNCTION corebank.core_customers_kyc_review_record(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    c corebank.customers;
    today date := corebank_internal.business_today();
    wanted date;
    policy date;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    wanted := corebank_internal.json_date(request, 'nextReviewDate');
    c := corebank_internal.require_customer(id, true);
    policy := (today + make_interval(months => corebank_internal.review_months(c.risk_category)))::date;
    IF wanted IS NOT NULL AND (wanted <= today OR wanted > policy) THEN
        PERFORM corebank_internal.fail('CBV00',
            format('nextReviewDate: must be after today and no later than %s (the %s risk interval)', policy, c.risk_category));
    END IF;
    IF c.risk_category = 'PROHIBITED' AND wanted IS NOT NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'nextReviewDate: a PROHIBITED customer has no periodic review');
    END IF;
    INSERT INTO corebank.kyc_reviews (customer_id, risk_category, notes, next_review_date, reviewed_by)
    VALUES (id, c.risk_category, corebank_internal.json_trimmed(request, 'notes', 2000), coalesce(wanted, policy), actor);
    UPDATE corebank.customers x
    SET last_reviewed_at = now(), last_reviewed_by = actor, next_review_date = coalesce(wanted, policy),
        updated_at = now(), updated_by = actor
    WHERE x.id = id;
    RETURN corebank_internal.kyc_profile_json(id);
END
$fn$;

CREATE FUNCTION corebank.core_customers_kyc_reviews_due(as_of date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    due_by date := coalesce(as_of, corebank_internal.business_today());
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object(
                       'customerId', c.id, 'customerNumber', c.customer_number,
                       'displayName', CASE WHEN c.type = 'INDIVIDUAL'
                                           THEN concat_ws(' ', c.first_name, c.middle_name, c.last_name)
                                           ELSE c.legal_name END,
                       'riskCategory', c.risk_category, 'nextReviewDate', c.next_review_date)
                   ORDER BY c.next_review_date, c.customer_number), '[]'::jsonb)
            FROM (SELECT * FROM corebank.customers x
                  WHERE x.next_review_date <= due_by AND x.status = 'ACTIVE'
                  ORDER BY x.next_review_date, x.customer_number LIMIT 1000) c);
END
$fn$;

-- {documentType, documentNumber, issuingCountry?, issuedOn?, expiresOn?}: PENDING.
CREATE FUNCTION corebank.core_customers_kyc_document_add(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    k corebank.kyc_documents;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    PERFORM corebank_internal.require_customer(id);
    k.document_type := corebank_internal.json_enum(request, 'documentType',
        ARRAY['NATIONAL_ID', 'PASSPORT', 'DRIVERS_LICENCE', 'COMPANY_REGISTRATION', 'PROOF_OF_ADDRESS',
              'TAX_CERTIFICATE', 'OTHER']);
    k.document_number := upper(corebank_internal.json_trimmed(request, 'documentNumber', 50));
    k.issuing_country := corebank_internal.json_country(request, 'issuingCountry');
    k.issued_on := corebank_internal.json_date(request, 'issuedOn');
    k.expires_on := corebank_internal.json_date(request, 'expiresOn');
    IF k.document_type IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'documentType: is required');
    END IF;
    IF k.document_number IS NULL OR k.document_number !~ '^[A-Z0-9 /.-]{1,50}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'documentNumber: must be 1 to 50 of A-Z 0-9 space / . -');
    END IF;
    IF k.issued_on > corebank_internal.business_today() THEN
        PERFORM corebank_internal.fail('CBV00', 'issuedOn: must not be in the future');
    END IF;
    IF k.expires_on <= k.issued_on THEN
        PERFORM corebank_internal.fail('CBV00', 'expiresOn: must be after issuedOn');
    END IF;
    INSERT INTO corebank.kyc_documents AS x (customer_id, document_type, document_number, issuing_country, issued_on,
                                             expires_on, submitted_by)
    VALUES (id, k.document_type, k.document_number, k.issuing_country, k.issued_on, k.expires_on, actor)
    ON CONFLICT DO NOTHING
    RETURNING x.* INTO k;
    IF k.id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'This document is already recorded for the customer');
    END IF;
    RETURN corebank_internal.kyc_document_json(k.id);
END
$fn$;

-- {decision: VERIFIED | REJECTED, note?}: parks kyc.document.verify; a
-- second person's approval applies it.
CREATE FUNCTION corebank.core_customers_kyc_document_verify_request(document_id uuid, request jsonb, actor uuid)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    decision text;
    note text;
    summary text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    IF document_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    decision := corebank_internal.json_enum(request, 'decision', ARRAY['VERIFIED', 'REJECTED']);
    note := corebank_internal.json_trimmed(request, 'note', 1000);
    IF decision IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'decision: is required (VERIFIED or REJECTED)');
    END IF;
    SELECT format('Mark %s %s of customer %s as %s', k.document_type, k.document_number, c.customer_number, decision)
    INTO summary
    FROM corebank.kyc_documents k JOIN corebank.customers c ON c.id = k.customer_id WHERE k.id = document_id;
    RETURN corebank.parked_change_create('kyc.document.verify', 'kyc_document', document_id::text,
                                         jsonb_build_object('decision', decision, 'note', note),
                                         coalesce(summary, 'Verify a KYC document'), actor);
END
$fn$;

-- The dispatch table's kyc.document.verify (pg/parked_changes.cpp):
-- checked when parked, applied when a second person approves.
CREATE FUNCTION corebank_internal.kyc_document_verify_validate(entity_id text, payload jsonb) RETURNS void
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    current_status text;
BEGIN
    IF entity_id !~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'entity_id: must be a KYC document id (UUID)');
    END IF;
    SELECT k.status INTO current_status FROM corebank.kyc_documents k WHERE k.id = entity_id::uuid;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'KYC document not found');
    END IF;
    IF current_status <> 'PENDING' THEN
        PERFORM corebank_internal.fail('CB409', format('The document is already %s', current_status));
    END IF;
    IF coalesce(payload ->> 'decision', '') NOT IN ('VERIFIED', 'REJECTED') THEN
        PERFORM corebank_internal.fail('CBV00', 'decision: must be VERIFIED or REJECTED');
    END IF;
END
$fn$;

CREATE FUNCTION corebank_internal.kyc_document_verify_apply(entity_id text, payload jsonb, checker uuid,
                                                            change_id uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
BEGIN
    UPDATE corebank.kyc_documents k
    SET status = payload ->> 'decision', decided_by = checker, decided_at = now(),
        decision_note = payload ->> 'note', parked_change_id = change_id
    WHERE k.id = entity_id::uuid AND k.status = 'PENDING';
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB409', 'The document is no longer PENDING');
    END IF;
    RETURN corebank_internal.kyc_document_json(entity_id::uuid);
END
$fn$;

-- {checkTypes?: [...], providerMode?}: external checks through the provider
-- of EXTERNAL_KYC_PROVIDER_MODE (the tier passes it). Only the offline STUB
-- exists: it contacts nothing and records source STUB.
CREATE FUNCTION corebank.core_customers_kyc_checks_run(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    all_types CONSTANT text[] := ARRAY['IDENTITY_REGISTRY', 'SANCTIONS_PEP', 'CREDIT_BUREAU', 'ADVERSE_MEDIA'];
    mode text;
    wanted text[];
    item jsonb;
    c corebank.customers;
    results jsonb := '[]'::jsonb;
    k corebank.kyc_checks;
    check_type text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    mode := upper(coalesce(corebank_internal.json_trimmed(request, 'providerMode', 32), 'STUB'));
    IF request ? 'checkTypes' AND jsonb_typeof(request -> 'checkTypes') <> 'null' THEN
        IF jsonb_typeof(request -> 'checkTypes') <> 'array' OR jsonb_array_length(request -> 'checkTypes') NOT BETWEEN 1 AND 4 THEN
            PERFORM corebank_internal.fail('CBV00', 'checkTypes: must be an array of 1 to 4 check types');
        END IF;
        wanted := ARRAY[]::text[];
        FOR item IN SELECT jsonb_array_elements(request -> 'checkTypes') LOOP
            IF jsonb_typeof(item) <> 'string' OR NOT upper(item #>> '{}') = ANY (all_types) THEN
                PERFORM corebank_internal.fail('CBV00', 'checkTypes: each must be one of ' || array_to_string(all_types, ', '));
            END IF;
            IF NOT upper(item #>> '{}') = ANY (wanted) THEN
                wanted := wanted || upper(item #>> '{}');
            END IF;
        END LOOP;
    ELSE
        wanted := all_types;
    END IF;
    c := corebank_internal.require_customer(id);
    IF mode <> 'STUB' THEN
        PERFORM corebank_internal.fail('CB422',
            format('EXTERNAL_KYC_PROVIDER_MODE %s is not available; only STUB is implemented', mode));
    END IF;
    FOREACH check_type IN ARRAY wanted LOOP
        INSERT INTO corebank.kyc_checks AS x (customer_id, check_type, provider_mode, source, outcome, details,
                                              requested_by)
        VALUES (id, check_type, 'STUB', 'STUB', 'CLEAR',
                jsonb_build_object('message', 'Offline stub: no provider was contacted; the result is not a real check',
                                   'subject', CASE WHEN c.type = 'INDIVIDUAL'
                                                   THEN concat_ws(' ', c.first_name, c.middle_name, c.last_name)
                                                   ELSE c.legal_name END),
                actor)
        RETURNING x.* INTO k;
        results := results || jsonb_build_array(corebank_internal.kyc_check_json(k));
    END LOOP;
    RETURN results;
END
$fn$;

-- Profitability: income, not profit (docs/design/deposits.md).
CREATE FUNCTION corebank.core_customers_profitability(id uuid, from_date date, to_date date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    today date := corebank_internal.business_today();
    first_day date := coalesce(from_date, date_trunc('month', today)::date);
    last_day date := coalesce(to_date, today);
    sole jsonb;
    shared jsonb;
    totals jsonb;
BEGIN
    PERFORM corebank_internal.require_customer(id);
    IF last_day < first_day OR last_day - first_day > 366 THEN
        PERFORM corebank_internal.fail('CBV00', 'to: must be on or after from and at most 366 days later');
    END IF;
    WITH mine AS (
        SELECT a.id FROM corebank.ledger_accounts a WHERE a.customer_id = id
    ), touched AS (
        SELECT DISTINCT e.transaction_id FROM corebank.journal_entries e
        WHERE e.ledger_account_id IN (SELECT m.id FROM mine m) AND e.value_date BETWEEN first_day AND last_day
    ), classified AS (
        SELECT t.id,
               NOT EXISTS (SELECT FROM corebank.journal_entries e2
                           JOIN corebank.ledger_accounts a2 ON a2.id = e2.ledger_account_id
                           WHERE e2.transaction_id = t.id AND a2.customer_id IS NOT NULL
                             AND a2.customer_id <> id) AS is_sole
        FROM corebank.transactions t JOIN touched x ON x.transaction_id = t.id
        -- Actually posted: not reversed, and not a reversal.
        WHERE t.status = 'POSTED' AND t.reverses_id IS NULL
    ), revenue AS (
        SELECT k.is_sole, g.code, g.name, e.currency::text AS currency,
               sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE -e.amount_minor END)::bigint AS revenue_minor,
               count(DISTINCT e.transaction_id) AS transaction_count
        FROM classified k
        JOIN corebank.journal_entries e ON e.transaction_id = k.id
        JOIN corebank.gl_accounts g ON g.id = e.gl_account_id
        WHERE g.type = 'INCOME'
        GROUP BY k.is_sole, g.code, g.name, e.currency
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object('glAccountCode', r.code, 'glAccountName', r.name, 'currency', r.currency,
                                                 'revenueMinor', r.revenue_minor,
                                                 'revenue', corebank_internal.money_text(r.revenue_minor, r.currency),
                                                 'transactionCount', r.transaction_count)
                              ORDER BY r.currency, r.code) FILTER (WHERE r.is_sole), '[]'::jsonb),
           coalesce(jsonb_agg(jsonb_build_object('glAccountCode', r.code, 'glAccountName', r.name, 'currency', r.currency,
                                                 'revenueMinor', r.revenue_minor,
                                                 'revenue', corebank_internal.money_text(r.revenue_minor, r.currency),
                                                 'transactionCount', r.transaction_count)
                              ORDER BY r.currency, r.code) FILTER (WHERE NOT r.is_sole), '[]'::jsonb),
           (SELECT coalesce(jsonb_agg(jsonb_build_object('currency', s.currency, 'soleMinor', s.sole_minor,
                                                         'sharedMinor', s.shared_minor) ORDER BY s.currency), '[]'::jsonb)
            FROM (SELECT r2.currency,
                         coalesce(sum(r2.revenue_minor) FILTER (WHERE r2.is_sole), 0)::bigint AS sole_minor,
                         coalesce(sum(r2.revenue_minor) FILTER (WHERE NOT r2.is_sole), 0)::bigint AS shared_minor
                  FROM revenue r2 GROUP BY r2.currency) s)
    INTO sole, shared, totals
    FROM revenue r;
    RETURN jsonb_build_object('customerId', id, 'from', first_day, 'to', last_day, 'basis', 'INCOME',
                              'sole', sole, 'shared', shared, 'totals', totals);
END
$fn$;

-- deposit products

CREATE FUNCTION corebank.core_deposit_products_list(filter jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    f jsonb := corebank_internal.require_object(coalesce(filter, '{}'::jsonb), 'filter');
    kind text := corebank_internal.json_enum(f, 'accountType', ARRAY['SAVINGS', 'CURRENT', 'FIXED_DEPOSIT',
        'CALL_DEPOSIT', 'MONEY_MARKET', 'TRUST', 'ESCROW', 'NOSTRO', 'SUSPENSE', 'GL']);
    wanted_currency text := upper(corebank_internal.json_trimmed(f, 'currency', 3));
    is_active bool := corebank_internal.json_bool(f, 'active');
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.deposit_product_json(p.id) ORDER BY p.code), '[]'::jsonb)
            FROM corebank.deposit_products p
            WHERE (kind IS NULL OR p.account_type = kind) AND (wanted_currency IS NULL OR p.currency = wanted_currency)
              AND (is_active IS NULL OR p.active = is_active));
END
$fn$;

CREATE FUNCTION corebank.core_deposit_products_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rendered jsonb := corebank_internal.deposit_product_json(id);
BEGIN
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Deposit product not found');
    END IF;
    RETURN rendered;
END
$fn$;

CREATE FUNCTION corebank.core_deposit_products_get_by_code(code text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rendered jsonb := corebank_internal.deposit_product_json(
        (SELECT p.id FROM corebank.deposit_products p WHERE p.code = upper(btrim(code))));
BEGIN
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Deposit product not found');
    END IF;
    RETURN rendered;
END
$fn$;

-- UpdateDepositProductRequest: omitted members keep their value; tiers is a
-- full replace ([] removes them). The trigger freezes code, type and
-- currency once an account uses the product.
CREATE FUNCTION corebank.core_deposit_products_update(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    p corebank.deposit_products;
    tier jsonb;
    tiers jsonb;
    previous bigint := -1;
    position int := 0;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    SELECT * INTO p FROM corebank.deposit_products x WHERE x.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Deposit product not found');
    END IF;
    IF request ? 'code' OR request ? 'accountType' OR request ? 'currency' OR request ? 'internal' THEN
        PERFORM corebank_internal.fail('CBV00', 'code, accountType, currency and internal cannot be changed');
    END IF;
    p.name := coalesce(corebank_internal.json_trimmed(request, 'name', 100), p.name);
    p.interest_method := coalesce(corebank_internal.json_enum(request, 'interestMethod', ARRAY['NONE', 'SIMPLE', 'COMPOUND']),
                                  p.interest_method);
    p.annual_rate_bp := coalesce(corebank_internal.json_int(request, 'annualRateBp', 0, 100000), p.annual_rate_bp);
    p.minimum_balance_minor := coalesce(corebank_internal.json_int(request, 'minimumBalanceMinor', 0, 1000000000000000),
                                        p.minimum_balance_minor);
    p.minimum_opening_minor := coalesce(corebank_internal.json_int(request, 'minimumOpeningMinor', 0, 1000000000000000),
                                        p.minimum_opening_minor);
    p.monthly_fee_minor := coalesce(corebank_internal.json_int(request, 'monthlyFeeMinor', 0, 1000000000000000),
                                    p.monthly_fee_minor);
    p.withdrawal_fee_minor := coalesce(corebank_internal.json_int(request, 'withdrawalFeeMinor', 0, 1000000000000000),
                                       p.withdrawal_fee_minor);
    p.term_days := coalesce(corebank_internal.json_int(request, 'termDays', 1, 3660), p.term_days);
    p.early_withdrawal_penalty_bp := coalesce(corebank_internal.json_int(request, 'earlyWithdrawalPenaltyBp', 0, 10000),
                                              p.early_withdrawal_penalty_bp);
    IF request ? 'dormancyDays' THEN
        p.dormancy_days := corebank_internal.json_int(request, 'dormancyDays', 1, 3660);
    END IF;
    p.active := coalesce(corebank_internal.json_bool(request, 'active'), p.active);
    IF p.account_type <> 'FIXED_DEPOSIT' AND request ? 'termDays' AND jsonb_typeof(request -> 'termDays') <> 'null' THEN
        PERFORM corebank_internal.fail('CBV00', 'termDays: applies to fixed deposits only');
    END IF;
    IF p.internal AND (p.interest_method <> 'NONE' OR p.dormancy_days IS NOT NULL) THEN
        PERFORM corebank_internal.fail('CB422', 'An internal account product earns no interest and is never dormant');
    END IF;
    IF request ? 'tiers' AND jsonb_typeof(request -> 'tiers') <> 'null' THEN
        tiers := request -> 'tiers';
        IF jsonb_typeof(tiers) <> 'array' OR jsonb_array_length(tiers) > 16 THEN
            PERFORM corebank_internal.fail('CBV00', 'tiers: must be an array of at most 16 tiers');
        END IF;
        FOR tier IN SELECT jsonb_array_elements(tiers) LOOP
            IF jsonb_typeof(tier) <> 'object'
               OR corebank_internal.json_int(tier, 'fromMinor', 0, 1000000000000000) IS NULL
               OR corebank_internal.json_int(tier, 'rateBp', 0, 100000) IS NULL THEN
                PERFORM corebank_internal.fail('CBV00', format('tiers[%s]: needs fromMinor and rateBp', position));
            END IF;
            IF (position = 0 AND (tier ->> 'fromMinor')::bigint <> 0) OR (tier ->> 'fromMinor')::bigint <= previous THEN
                PERFORM corebank_internal.fail('CBV00',
                    format('tiers[%s].fromMinor: the first tier starts at 0 and each starts above the previous', position));
            END IF;
            previous := (tier ->> 'fromMinor')::bigint;
            position := position + 1;
        END LOOP;
        DELETE FROM corebank.deposit_product_tiers t WHERE t.product_id = id;
        INSERT INTO corebank.deposit_product_tiers (product_id, from_minor, rate_bp)
        SELECT id, (x ->> 'fromMinor')::bigint, (x ->> 'rateBp')::int FROM jsonb_array_elements(tiers) AS x;
    END IF;
    UPDATE corebank.deposit_products x
    SET name = p.name, interest_method = p.interest_method, annual_rate_bp = p.annual_rate_bp,
        minimum_balance_minor = p.minimum_balance_minor, minimum_opening_minor = p.minimum_opening_minor,
        monthly_fee_minor = p.monthly_fee_minor, withdrawal_fee_minor = p.withdrawal_fee_minor,
        term_days = p.term_days, early_withdrawal_penalty_bp = p.early_withdrawal_penalty_bp,
        dormancy_days = p.dormancy_days, active = p.active, updated_at = now(), updated_by = actor
    WHERE x.id = id;
    RETURN corebank_internal.deposit_product_json(id);
END
$fn$;

-- accounts

-- OpenAccountRequest (docs/design/deposits.md).
CREATE FUNCTION corebank.core_accounts_open(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    today date := corebank_internal.business_today();
    product_id uuid;
    product_code text;
    p corebank.deposit_products;
    c corebank.customers;
    customer uuid;
    gl corebank.gl_accounts;
    gl_code text;
    branch uuid;
    opening_status text;
    initial jsonb;
    initial_amount bigint;
    new_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    product_id := corebank_internal.json_uuid(request, 'productId');
    product_code := upper(corebank_internal.json_trimmed(request, 'productCode', 20));
    customer := corebank_internal.json_uuid(request, 'customerId');
    initial := request -> 'initialDeposit';
    IF product_id IS NULL AND product_code IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'productCode: is required (or productId)');
    END IF;
    SELECT * INTO p FROM corebank.deposit_products x
    WHERE (product_id IS NOT NULL AND x.id = product_id) OR (product_id IS NULL AND x.code = product_code);
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Deposit product not found');
    END IF;
    IF NOT p.active THEN
        PERFORM corebank_internal.fail('CB422', format('Deposit product %s is not offered any more', p.code));
    END IF;
    IF initial IS NOT NULL AND jsonb_typeof(initial) = 'null' THEN
        initial := NULL;
    END IF;
    IF initial IS NOT NULL THEN
        PERFORM corebank_internal.require_object(initial, 'initialDeposit');
        initial_amount := corebank_internal.json_positive_amount(initial);
    END IF;

    IF customer IS NOT NULL THEN
        -- FOR SHARE: the customer cannot change status under the opening.
        SELECT * INTO c FROM corebank.customers x WHERE x.id = customer FOR SHARE;
        IF NOT FOUND THEN
            PERFORM corebank_internal.fail('CB404', 'Customer not found');
        END IF;
        IF c.status <> 'ACTIVE' THEN
            PERFORM corebank_internal.fail('CB422', 'The customer is not ACTIVE');
        END IF;
        IF c.risk_category = 'PROHIBITED' THEN
            PERFORM corebank_internal.fail('CB422', 'The customer''s risk category is PROHIBITED: no account may be opened');
        END IF;
    ELSIF NOT p.internal THEN
        PERFORM corebank_internal.fail('CBV00', 'customerId: is required');
    END IF;

    gl_code := p.gl_account_code;
    IF p.account_type = 'GL' THEN
        gl_code := coalesce(corebank_internal.json_trimmed(request, 'glAccountCode', 20), gl_code);
    ELSIF request ? 'glAccountCode' AND jsonb_typeof(request -> 'glAccountCode') <> 'null' THEN
        PERFORM corebank_internal.fail('CBV00', 'glAccountCode: only a GL-type account names its GL account');
    END IF;
    SELECT * INTO gl FROM corebank.gl_accounts g WHERE g.code = gl_code AND g.currency = p.currency;
    IF NOT FOUND OR NOT gl.active THEN
        PERFORM corebank_internal.fail('CB422', format('GL account %s (%s) is missing or inactive', gl_code, p.currency));
    END IF;
    branch := corebank_internal.request_branch(request, actor, c.branch_id);
    IF NOT (SELECT b.active FROM corebank.branches b WHERE b.id = branch) THEN
        PERFORM corebank_internal.fail('CB422', 'The branch is inactive');
    END IF;

    opening_status := CASE WHEN p.requires_activation THEN 'PENDING_ACTIVATION' ELSE 'ACTIVE' END;
    IF initial IS NOT NULL AND opening_status <> 'ACTIVE' THEN
        PERFORM corebank_internal.fail('CB422', 'The account needs activation before it takes a deposit');
    END IF;
    IF p.minimum_opening_minor > 0 AND opening_status = 'ACTIVE' AND coalesce(initial_amount, 0) < p.minimum_opening_minor THEN
        PERFORM corebank_internal.fail('CB422', format('Product %s needs an initial deposit of at least %s', p.code,
                                                       corebank_internal.money_text(p.minimum_opening_minor, p.currency)));
    END IF;

    INSERT INTO corebank.ledger_accounts AS a (account_number, customer_id, name, gl_account_id, currency, branch_id,
                                               status, allow_overdraft_minor)
    VALUES (corebank.next_number('ACCOUNT'), customer,
            coalesce(corebank_internal.json_trimmed(request, 'name', 200), p.name), gl.id, gl.currency, branch,
            opening_status, p.allow_overdraft_minor)
    ON CONFLICT DO NOTHING
    RETURNING a.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'The next account number is already taken; move the ACCOUNT numbering forward');
    END IF;
    INSERT INTO corebank.deposit_accounts (id, product_id, account_type, customer_id, opened_on, opened_by, maturity_date,
                                           processed_through, activated_at, activated_by)
    VALUES (new_id, p.id, p.account_type, customer, today, actor,
            CASE WHEN p.term_days IS NOT NULL THEN today + p.term_days END, today - 1,
            CASE WHEN opening_status = 'ACTIVE' THEN now() END, CASE WHEN opening_status = 'ACTIVE' THEN actor END);
    INSERT INTO corebank.account_status_history (account_id, from_status, to_status, reason, actor_id)
    VALUES (new_id, NULL, opening_status, 'opened', actor);

    IF initial IS NOT NULL THEN
        PERFORM corebank_internal.money_deposit(initial || jsonb_build_object('accountId', new_id), actor, true);
    END IF;
    RETURN corebank_internal.account_json(new_id);
END
$fn$;

CREATE FUNCTION corebank.core_accounts_get(id uuid) RETURNS jsonb
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
    rendered := corebank_internal.account_json(id);
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    RETURN rendered;
END
$fn$;

CREATE FUNCTION corebank.core_accounts_get_by_number(account_number text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rendered jsonb := corebank_internal.account_json(
        (SELECT a.id FROM corebank.ledger_accounts a WHERE a.account_number = upper(btrim(account_number))));
BEGIN
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    RETURN rendered;
END
$fn$;

-- Filter: {customerId?, status?, accountType?, productCode?, currency?, page?, size?}.
CREATE FUNCTION corebank.core_accounts_list(filter jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    f jsonb := corebank_internal.require_object(coalesce(filter, '{}'::jsonb), 'filter');
    customer uuid := corebank_internal.json_uuid(f, 'customerId');
    wanted_status text := corebank_internal.json_enum(f, 'status',
        ARRAY['PENDING_ACTIVATION', 'ACTIVE', 'FROZEN', 'DORMANT', 'CLOSED']);
    kind text := corebank_internal.json_enum(f, 'accountType', ARRAY['SAVINGS', 'CURRENT', 'FIXED_DEPOSIT',
        'CALL_DEPOSIT', 'MONEY_MARKET', 'TRUST', 'ESCROW', 'NOSTRO', 'SUSPENSE', 'GL']);
    product_code text := upper(corebank_internal.json_trimmed(f, 'productCode', 20));
    wanted_currency text := upper(corebank_internal.json_trimmed(f, 'currency', 3));
    bounds int[] := corebank_internal.page_bounds(corebank_internal.json_int(f, 'page', 0, 1000000)::int,
                                                  corebank_internal.json_int(f, 'size', 1, 200)::int);
    total bigint;
    content jsonb;
BEGIN
    WITH hits AS MATERIALIZED (
        SELECT a.id, a.account_number FROM corebank.deposit_accounts d
        JOIN corebank.ledger_accounts a ON a.id = d.id
        JOIN corebank.deposit_products p ON p.id = d.product_id
        WHERE (customer IS NULL OR d.customer_id = customer) AND (wanted_status IS NULL OR a.status = wanted_status)
          AND (kind IS NULL OR d.account_type = kind) AND (product_code IS NULL OR p.code = product_code)
          AND (wanted_currency IS NULL OR a.currency = wanted_currency)
    ), chosen AS (
        SELECT h.id, h.account_number FROM hits h ORDER BY h.account_number
        LIMIT bounds[2] OFFSET bounds[1]::bigint * bounds[2]
    )
    SELECT (SELECT count(*) FROM hits),
           (SELECT jsonb_agg(corebank_internal.account_json(x.id) ORDER BY x.account_number) FROM chosen x)
    INTO total, content;
    RETURN corebank_internal.page_json(content, bounds[1], bounds[2], total);
END
$fn$;

-- One lifecycle operation: the account must be in one of `allowed`
-- (CB409 otherwise); the trigger enforces the state table again.
CREATE FUNCTION corebank_internal.account_lifecycle(account uuid, allowed text[], to_status text, reason text,
                                                    actor uuid, verb text) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    current_status text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF account IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    SELECT a.status INTO current_status FROM corebank.ledger_accounts a
    JOIN corebank.deposit_accounts d ON d.id = a.id WHERE a.id = account FOR UPDATE OF a;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    IF NOT current_status = ANY (allowed) THEN
        PERFORM corebank_internal.fail('CB409', format('Cannot %s an account that is %s', verb, current_status));
    END IF;
    PERFORM corebank_internal.account_status_set(account, to_status, reason, actor);
    RETURN corebank_internal.account_json(account);
END
$fn$;

CREATE FUNCTION corebank.core_accounts_activate(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    RETURN corebank_internal.account_lifecycle(id, ARRAY['PENDING_ACTIVATION'], 'ACTIVE',
        coalesce(corebank_internal.json_trimmed(request, 'reason', 500), 'activated'), actor, 'activate');
END
$fn$;

CREATE FUNCTION corebank.core_accounts_freeze(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    reason text;
BEGIN
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    reason := corebank_internal.json_trimmed(request, 'reason', 500);
    IF reason IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'reason: is required');
    END IF;
    RETURN corebank_internal.account_lifecycle(id, ARRAY['ACTIVE', 'DORMANT'], 'FROZEN', reason, actor, 'freeze');
END
$fn$;

CREATE FUNCTION corebank.core_accounts_unfreeze(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    RETURN corebank_internal.account_lifecycle(id, ARRAY['FROZEN'], 'ACTIVE',
        coalesce(corebank_internal.json_trimmed(request, 'reason', 500), 'unfrozen'), actor, 'unfreeze');
END
$fn$;

CREATE FUNCTION corebank.core_accounts_reactivate(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    RETURN corebank_internal.account_lifecycle(id, ARRAY['DORMANT'], 'ACTIVE',
        coalesce(corebank_internal.json_trimmed(request, 'reason', 500), 'reactivated'), actor, 'reactivate');
END
$fn$;

-- Close: zero balance, no accrued interest, no live standing order; the
-- live passbook closes with the account.
CREATE FUNCTION corebank.core_accounts_close(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    r record;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    SELECT a.status, a.balance_minor, a.currency, d.accrued_minor, d.accrued_micro INTO r
    FROM corebank.ledger_accounts a JOIN corebank.deposit_accounts d ON d.id = a.id
    WHERE a.id = id FOR UPDATE OF a;
    IF FOUND AND r.status <> 'CLOSED' THEN
        IF r.balance_minor <> 0 THEN
            PERFORM corebank_internal.fail('CB422', format('The balance must be zero to close the account (it is %s)',
                                                           corebank_internal.money_text(r.balance_minor, r.currency)));
        END IF;
        IF r.accrued_micro <> 0 THEN
            PERFORM corebank_internal.fail('CB422', 'The account has accrued interest not yet posted; post it and pay it out first');
        END IF;
        IF EXISTS (SELECT FROM corebank.standing_orders o
                   WHERE (o.source_account_id = id OR o.target_account_id = id) AND o.status IN ('ACTIVE', 'PAUSED')) THEN
            PERFORM corebank_internal.fail('CB422', 'Cancel the account''s standing orders first');
        END IF;
        UPDATE corebank.passbooks b SET status = 'CLOSED', closed_at = now() WHERE b.account_id = id AND b.status = 'ACTIVE';
    END IF;
    RETURN corebank_internal.account_lifecycle(id, ARRAY['PENDING_ACTIVATION', 'ACTIVE', 'DORMANT'], 'CLOSED',
        coalesce(corebank_internal.json_trimmed(request, 'reason', 500), 'closed'), actor, 'close');
END
$fn$;

CREATE FUNCTION corebank.core_accounts_status_history(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF NOT EXISTS (SELECT FROM corebank.deposit_accounts d WHERE d.id = id) THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('fromStatus', h.from_status, 'toStatus', h.to_status,
                                                         'reason', h.reason, 'actorId', h.actor_id,
                                                         'at', corebank_internal.iso_utc(h.at)) ORDER BY h.id), '[]'::jsonb)
            FROM corebank.account_status_history h WHERE h.account_id = id);
END
$fn$;

-- Balance as of a date, from the ledger expression.
CREATE FUNCTION corebank.core_accounts_balance(id uuid, as_of date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    today date := corebank_internal.business_today();
    on_date date := coalesce(as_of, today);
    account jsonb;
    balance bigint;
BEGIN
    IF on_date > today THEN
        PERFORM corebank_internal.fail('CBV00', format('asOf: must not be after the business date %s', today));
    END IF;
    account := corebank.core_accounts_get(id);
    balance := corebank_internal.account_balance_as_of(id, on_date);
    RETURN jsonb_build_object(
        'accountId', id, 'accountNumber', account ->> 'accountNumber', 'currency', account ->> 'currency',
        'asOf', on_date, 'balanceMinor', balance,
        'balance', corebank_internal.money_text(balance, account ->> 'currency'),
        'currentBalanceMinor', account -> 'balanceMinor', 'currentBalance', account -> 'balance',
        'availableBalanceMinor', account -> 'availableBalanceMinor', 'availableBalance', account -> 'availableBalance',
        'accruedInterestMinor', account -> 'accruedInterestMinor', 'accruedInterest', account -> 'accruedInterest');
END
$fn$;

-- Statement: the entries with value dates in [from, to], ordered by value
-- date and entry, with the opening balance of everything before.
CREATE FUNCTION corebank.core_statement(account_id uuid, from_date date, to_date date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    today date := corebank_internal.business_today();
    first_day date := coalesce(from_date, date_trunc('month', today)::date);
    last_day date := coalesce(to_date, today);
    a corebank.ledger_accounts;
    opening bigint;
    lines jsonb;
    debits bigint;
    credits bigint;
BEGIN
    IF last_day < first_day OR last_day - first_day > 366 THEN
        PERFORM corebank_internal.fail('CBV00', 'to: must be on or after from and at most 366 days later');
    END IF;
    SELECT x.* INTO a FROM corebank.ledger_accounts x JOIN corebank.deposit_accounts d ON d.id = x.id
    WHERE x.id = account_id;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    opening := corebank_internal.account_balance_as_of(account_id, first_day - 1);
    WITH e AS (
        SELECT x.*, opening + sum(x.signed_minor) OVER (ORDER BY x.value_date, x.entry_id) AS running
        FROM corebank_internal.account_entries(account_id) x
        WHERE x.value_date BETWEEN first_day AND last_day
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'entryId', e.entry_id, 'transactionId', e.transaction_id, 'reference', t.reference, 'type', t.type,
               'valueDate', e.value_date, 'postedAt', corebank_internal.iso_utc(t.posted_at),
               'description', t.description, 'narrative', e.narrative,
               'side', CASE e.side WHEN 'D' THEN 'DEBIT' ELSE 'CREDIT' END, 'amountMinor', e.amount_minor,
               'amount', corebank_internal.money_text(e.amount_minor, a.currency),
               'balanceMinor', e.running, 'balance', corebank_internal.money_text(e.running::bigint, a.currency))
               ORDER BY e.value_date, e.entry_id), '[]'::jsonb),
           coalesce(sum(e.amount_minor) FILTER (WHERE e.side = 'D'), 0)::bigint,
           coalesce(sum(e.amount_minor) FILTER (WHERE e.side = 'C'), 0)::bigint
    INTO lines, debits, credits
    FROM e JOIN corebank.transactions t ON t.id = e.transaction_id;
    RETURN jsonb_build_object(
        'accountId', a.id, 'accountNumber', a.account_number, 'currency', a.currency, 'from', first_day,
        'to', last_day, 'openingBalanceMinor', opening, 'openingBalance', corebank_internal.money_text(opening, a.currency),
        'closingBalanceMinor', opening + credits - debits,
        'closingBalance', corebank_internal.money_text(opening + credits - debits, a.currency),
        'totalDebitsMinor', debits, 'totalCreditsMinor', credits, 'lines', lines);
END
$fn$;

-- money: deposits, withdrawals, transfers, fees
--
-- Each builds a balanced ledger_post request and hands it to the C++
-- account-posting rules (corebank_internal.account_post), which lock the
-- accounts, apply the state table and the minimum balance, reactivate a
-- DORMANT account on a customer-initiated posting, and call the ledger's
-- posting engine. Locks: the accounts involved first (ledger rows, id
-- order), then the TRANSACTION numbering row, then the posting engine's.

-- The header members shared by the money requests.
CREATE FUNCTION corebank_internal.money_header(request jsonb, type text, actor uuid, branch_fallback uuid)
    RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    reference text := corebank_internal.json_trimmed(request, 'reference', 80);
    value_date date := corebank_internal.json_date(request, 'valueDate');
    channel text := corebank_internal.json_channel(request);
    branch uuid := corebank_internal.request_branch(request, actor, branch_fallback);
BEGIN
    RETURN jsonb_strip_nulls(jsonb_build_object('type', type,
                              'reference', coalesce(reference, corebank.next_number('TRANSACTION')),
                              'description', corebank_internal.json_trimmed(request, 'description', 500),
                              'valueDate', value_date, 'branchId', branch, 'channel', channel,
                              'operatorId', actor, 'makerId', actor));
END
$fn$;

-- A GL account of a type, by code, in a currency (CB422 when unusable).
CREATE FUNCTION corebank_internal.money_gl(code text, currency text, wanted_type text, field text) RETURNS uuid
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    g corebank.gl_accounts;
BEGIN
    SELECT * INTO g FROM corebank.gl_accounts x WHERE x.code = money_gl.code AND x.currency = money_gl.currency;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', format('%s: GL account %s (%s) not found', field, code, currency));
    END IF;
    IF g.type <> wanted_type OR NOT g.active THEN
        PERFORM corebank_internal.fail('CB422', format('%s: GL account %s (%s) must be an active %s account',
                                                       field, code, currency, wanted_type));
    END IF;
    RETURN g.id;
END
$fn$;

CREATE FUNCTION corebank_internal.money_currency_check(request jsonb, currency text, account_number text) RETURNS void
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    given text := upper(corebank_internal.json_trimmed(request, 'currency', 3));
BEGIN
    IF given IS NOT NULL AND given <> currency THEN
        PERFORM corebank_internal.fail('CB422', format('currency: account %s is in %s', account_number, currency));
    END IF;
END
$fn$;

-- A fixed deposit takes one deposit: its first posting.
CREATE FUNCTION corebank_internal.money_fixed_deposit_check(account uuid, account_type text, account_number text)
    RETURNS void
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    IF account_type = 'FIXED_DEPOSIT' AND EXISTS (SELECT FROM corebank.journal_entries e WHERE e.ledger_account_id = account) THEN
        PERFORM corebank_internal.fail('CB422', format('Fixed deposit %s takes a single deposit', account_number));
    END IF;
END
$fn$;

-- Early withdrawal from a fixed deposit: the penalty in minor units.
CREATE FUNCTION corebank_internal.money_penalty(account_type text, maturity date, penalty_bp int, amount bigint)
    RETURNS bigint
    LANGUAGE sql STABLE
    AS $fn$
    SELECT CASE WHEN account_type = 'FIXED_DEPOSIT' AND corebank_internal.business_today() < maturity
                THEN corebank_internal.money_apply_bp(amount, penalty_bp) ELSE 0 END
$fn$;

CREATE FUNCTION corebank_internal.money_deposit(request jsonb, actor uuid, customer_initiated bool) RETURNS uuid
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
    RETURN (corebank_internal.account_post(header || jsonb_build_object('lines', jsonb_build_array(
                jsonb_build_object('glAccountId', source, 'side', 'D', 'amountMinor', amount, 'currency', a.currency),
                jsonb_build_object('accountId', a.account_id, 'side', 'C', 'amountMinor', amount, 'currency', a.currency,
                                   'narrative', coalesce(corebank_internal.json_trimmed(request, 'narrative', 500), 'Deposit')))),
            jsonb_build_object('customer', CASE WHEN customer_initiated THEN jsonb_build_array(a.account_id)
                                                ELSE '[]'::jsonb END,
                               'minimumBalance', '[]'::jsonb)) ->> 'id')::uuid;
END
$fn$;

CREATE FUNCTION corebank_internal.money_withdraw(request jsonb, actor uuid) RETURNS uuid
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
    RETURN (corebank_internal.account_post(header || jsonb_build_object('lines', lines),
            jsonb_build_object('customer', jsonb_build_array(a.account_id),
                               'minimumBalance', jsonb_build_array(a.account_id))) ->> 'id')::uuid;
END
$fn$;

-- customer_initiated false: a standing order (not activity, no
-- reactivation; the minimum balance still holds).
CREATE FUNCTION corebank_internal.money_transfer(request jsonb, actor uuid, customer_initiated bool) RETURNS uuid
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
    RETURN (corebank_internal.account_post(header || jsonb_build_object('lines', lines),
            jsonb_build_object('customer', customer_lines,
                               'minimumBalance', CASE WHEN source.internal THEN '[]'::jsonb
                                                      ELSE jsonb_build_array(from_id) END)) ->> 'id')::uuid;
END
$fn$;

CREATE FUNCTION corebank_internal.money_fee(request jsonb, actor uuid) RETURNS uuid
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
    RETURN (corebank_internal.account_post(header || jsonb_build_object('lines', jsonb_build_array(
                jsonb_build_object('accountId', a.account_id, 'side', 'D', 'amountMinor', amount, 'currency', a.currency,
                                   'narrative', description),
                jsonb_build_object('glAccountId', income, 'side', 'C', 'amountMinor', amount, 'currency', a.currency,
                                   'narrative', description))),
            '{"customer": [], "minimumBalance": []}'::jsonb) ->> 'id')::uuid;
END
$fn$;

-- The idempotent shell of the four money functions: a key is claimed before
-- any work, so a repeat returns the first response and posts nothing.
CREATE FUNCTION corebank_internal.money_run(operation text, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    key text;
    replay jsonb;
    transaction_id uuid;
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
    transaction_id := CASE operation
                          WHEN 'deposit' THEN corebank_internal.money_deposit(request, actor, true)
                          WHEN 'withdrawal' THEN corebank_internal.money_withdraw(request, actor)
                          WHEN 'transfer' THEN corebank_internal.money_transfer(request, actor, true)
                          WHEN 'fee' THEN corebank_internal.money_fee(request, actor)
                      END;
    IF key IS NOT NULL THEN
        RETURN corebank_internal.money_idempotency_complete(key, transaction_id);
    END IF;
    RETURN corebank_internal.transaction_json(transaction_id);
END
$fn$;

CREATE FUNCTION corebank.core_deposit(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.money_run('deposit', request, actor);
END
$fn$;

CREATE FUNCTION corebank.core_withdraw(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.money_run('withdrawal', request, actor);
END
$fn$;

CREATE FUNCTION corebank.core_transfer(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.money_run('transfer', request, actor);
END
$fn$;

CREATE FUNCTION corebank.core_fee(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.money_run('fee', request, actor);
END
$fn$;

-- exchange rates

CREATE FUNCTION corebank.core_fx_rates_set(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    from_currency text;
    to_currency text;
    rate_text text;
    effective date;
    r corebank.exchange_rates;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    from_currency := upper(corebank_internal.json_trimmed(request, 'fromCurrency', 3));
    to_currency := upper(corebank_internal.json_trimmed(request, 'toCurrency', 3));
    effective := coalesce(corebank_internal.json_date(request, 'effectiveDate'), corebank_internal.business_today());
    IF from_currency IS NULL OR NOT EXISTS (SELECT FROM corebank.currencies c WHERE c.code = from_currency AND c.active) THEN
        PERFORM corebank_internal.fail('CBV00', 'fromCurrency: must be USD or ZWG');
    END IF;
    IF to_currency IS NULL OR NOT EXISTS (SELECT FROM corebank.currencies c WHERE c.code = to_currency AND c.active) THEN
        PERFORM corebank_internal.fail('CBV00', 'toCurrency: must be USD or ZWG');
    END IF;
    IF from_currency = to_currency THEN
        PERFORM corebank_internal.fail('CBV00', 'toCurrency: must differ from fromCurrency');
    END IF;
    IF jsonb_typeof(request -> 'rate') IN ('number', 'string') THEN
        rate_text := request ->> 'rate';
    END IF;
    IF rate_text IS NULL OR rate_text !~ '^[0-9]{1,10}(\.[0-9]{1,10})?$' OR rate_text::numeric <= 0 THEN
        PERFORM corebank_internal.fail('CBV00', 'rate: must be a positive decimal with at most 10 decimals');
    END IF;
    INSERT INTO corebank.exchange_rates AS x (from_currency, to_currency, rate, effective_date, created_by)
    VALUES (from_currency, to_currency, rate_text::numeric, effective, actor)
    ON CONFLICT DO NOTHING
    RETURNING x.* INTO r;
    IF r.id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', format('A %s to %s rate for %s is already set; rates are immutable',
                                                       from_currency, to_currency, effective));
    END IF;
    RETURN corebank_internal.fx_rate_json(r, false);
END
$fn$;

CREATE FUNCTION corebank.core_fx_rates_get(from_currency text, to_currency text, on_date date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    wanted date := coalesce(on_date, corebank_internal.business_today());
    found record;
BEGIN
    SELECT * INTO found FROM corebank_internal.fx_rate_in_force(upper(from_currency), upper(to_currency), wanted);
    IF found.rate IS NULL THEN
        PERFORM corebank_internal.fail('CB422', format('No exchange rate from %s to %s on %s', upper(from_currency),
                                                       upper(to_currency), wanted));
    END IF;
    RETURN found.rendered;
END
$fn$;

-- Filter {date?, fromCurrency?, toCurrency?, history?}: the rates in force on
-- the date (one per pair), or every dated rate with history true.
CREATE FUNCTION corebank.core_fx_rates_list(filter jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    f jsonb := corebank_internal.require_object(coalesce(filter, '{}'::jsonb), 'filter');
    on_date date := coalesce(corebank_internal.json_date(f, 'date'), corebank_internal.business_today());
    from_filter text := upper(corebank_internal.json_trimmed(f, 'fromCurrency', 3));
    to_filter text := upper(corebank_internal.json_trimmed(f, 'toCurrency', 3));
    history bool := coalesce(corebank_internal.json_bool(f, 'history'), false);
BEGIN
    IF history THEN
        RETURN (SELECT coalesce(jsonb_agg(corebank_internal.fx_rate_json(r) ORDER BY r.from_currency, r.to_currency,
                                          r.effective_date DESC), '[]'::jsonb)
                FROM (SELECT * FROM corebank.exchange_rates x
                      WHERE (from_filter IS NULL OR x.from_currency = from_filter)
                        AND (to_filter IS NULL OR x.to_currency = to_filter)
                      ORDER BY x.effective_date DESC LIMIT 1000) r);
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.fx_rate_json(r) ORDER BY r.from_currency, r.to_currency), '[]'::jsonb)
            FROM (SELECT DISTINCT ON (x.from_currency, x.to_currency) x.*
                  FROM corebank.exchange_rates x
                  WHERE x.effective_date <= on_date AND (from_filter IS NULL OR x.from_currency = from_filter)
                    AND (to_filter IS NULL OR x.to_currency = to_filter)
                  ORDER BY x.from_currency, x.to_currency, x.effective_date DESC) r);
END
$fn$;

-- passbooks: no money, only how far a book is printed

CREATE FUNCTION corebank.core_passbook_issue(account_id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    a record;
    previous corebank.passbooks;
    live int;
    new_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    SELECT * INTO a FROM corebank_internal.deposit_account_row(account_id, 'accountId', true);
    IF a.status = 'CLOSED' THEN
        PERFORM corebank_internal.fail('CB422', 'The account is CLOSED');
    END IF;
    SELECT b.book_number INTO live FROM corebank.passbooks b WHERE b.account_id = account_id AND b.status = 'ACTIVE';
    IF FOUND THEN
        PERFORM corebank_internal.fail('CB409', format('The account already has a live passbook (book %s)', live));
    END IF;
    SELECT * INTO previous FROM corebank.passbooks b WHERE b.account_id = account_id
    ORDER BY b.book_number DESC LIMIT 1;
    -- A new book continues where the last one's printing ended.
    INSERT INTO corebank.passbooks AS b (account_id, book_number, starts_after_entry_id, issued_by)
    VALUES (account_id, coalesce(previous.book_number, 0) + 1,
            coalesce(previous.printed_through_entry_id, previous.starts_after_entry_id, 0), actor)
    RETURNING b.id INTO new_id;
    RETURN corebank_internal.passbook_json(new_id);
END
$fn$;

CREATE FUNCTION corebank.core_passbook_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rendered jsonb := corebank_internal.passbook_json(id);
BEGIN
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Passbook not found');
    END IF;
    RETURN rendered;
END
$fn$;

CREATE FUNCTION corebank.core_passbook_list(account_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF NOT EXISTS (SELECT FROM corebank.deposit_accounts d WHERE d.id = account_id) THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.passbook_json(b.id) ORDER BY b.book_number DESC), '[]'::jsonb)
            FROM corebank.passbooks b WHERE b.account_id = account_id);
END
$fn$;

-- Reprint on loss: the live book becomes LOST and a replacement starts where
-- the lost book started, nothing printed, so every line prints again.
CREATE FUNCTION corebank.core_passbook_reprint(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.passbooks;
    new_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    SELECT * INTO b FROM corebank.passbooks x WHERE x.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Passbook not found');
    END IF;
    IF b.status <> 'ACTIVE' THEN
        PERFORM corebank_internal.fail('CB409', format('Only the live passbook can be reprinted (this one is %s)', b.status));
    END IF;
    UPDATE corebank.passbooks x
    SET status = 'LOST', lost_at = now(), lost_by = actor,
        lost_reason = coalesce(corebank_internal.json_trimmed(request, 'reason', 500), 'lost')
    WHERE x.id = id;
    INSERT INTO corebank.passbooks AS x (account_id, book_number, replaces_id, starts_after_entry_id, issued_by)
    VALUES (b.account_id, (SELECT max(y.book_number) + 1 FROM corebank.passbooks y WHERE y.account_id = b.account_id),
            b.id, b.starts_after_entry_id, actor)
    RETURNING x.id INTO new_id;
    RETURN corebank_internal.passbook_json(new_id);
END
$fn$;

-- The lines not printed yet, with the balance before the first of them and
-- after the last: opening + lines = closing.
CREATE FUNCTION corebank.core_passbook_unprinted(id uuid, max_lines int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.passbooks;
    a corebank.ledger_accounts;
    line_limit int := coalesce(max_lines, 100);
    printed_to bigint;
    opening bigint;
    before_count bigint;
    lines jsonb;
    closing bigint;
    remaining bigint;
BEGIN
    IF line_limit NOT BETWEEN 1 AND 500 THEN
        PERFORM corebank_internal.fail('CBV00', 'limit: must be from 1 to 500');
    END IF;
    SELECT * INTO b FROM corebank.passbooks x WHERE x.id = id;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Passbook not found');
    END IF;
    SELECT * INTO a FROM corebank.ledger_accounts x WHERE x.id = b.account_id;
    printed_to := greatest(b.starts_after_entry_id, coalesce(b.printed_through_entry_id, 0));
    SELECT coalesce(sum(e.signed_minor) FILTER (WHERE e.entry_id <= printed_to), 0)::bigint,
           count(*) FILTER (WHERE e.entry_id > b.starts_after_entry_id AND e.entry_id <= printed_to),
           count(*) FILTER (WHERE e.entry_id > printed_to)
    INTO opening, before_count, remaining
    FROM corebank_internal.account_entries(b.account_id) e;
    WITH page AS (
        SELECT e.*, row_number() OVER (ORDER BY e.entry_id) AS n,
               opening + sum(e.signed_minor) OVER (ORDER BY e.entry_id) AS running
        FROM corebank_internal.account_entries(b.account_id) e
        WHERE e.entry_id > printed_to
        ORDER BY e.entry_id LIMIT line_limit
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'lineNo', before_count + p.n, 'entryId', p.entry_id, 'transactionId', p.transaction_id,
               'reference', t.reference, 'type', t.type, 'valueDate', p.value_date,
               'postedAt', corebank_internal.iso_utc(t.posted_at), 'narrative', coalesce(p.narrative, t.description),
               'debitCents', CASE WHEN p.side = 'D' THEN p.amount_minor END,
               'creditCents', CASE WHEN p.side = 'C' THEN p.amount_minor END,
               'balanceCents', p.running, 'balance', corebank_internal.money_text(p.running::bigint, a.currency))
               ORDER BY p.entry_id), '[]'::jsonb),
           opening + coalesce(sum(p.signed_minor), 0)
    INTO lines, closing
    FROM page p JOIN corebank.transactions t ON t.id = p.transaction_id;
    RETURN jsonb_build_object(
        'passbookId', b.id, 'accountId', a.id, 'accountNumber', a.account_number, 'currency', a.currency,
        'bookNumber', b.book_number, 'status', b.status,
        'openingBalanceCents', opening, 'openingBalance', corebank_internal.money_text(opening, a.currency),
        'closingBalanceCents', closing, 'closingBalance', corebank_internal.money_text(closing, a.currency),
        'lines', lines, 'more', remaining > jsonb_array_length(lines));
END
$fn$;

-- {lastEntryId}: the entry of the last line actually printed. Lines after
-- it (postings that landed after printing) stay unprinted.
CREATE FUNCTION corebank.core_passbook_print_confirm(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.passbooks;
    last_entry bigint;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    last_entry := corebank_internal.json_int(request, 'lastEntryId', 1, 9223372036854775807);
    IF last_entry IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'lastEntryId: is required');
    END IF;
    SELECT * INTO b FROM corebank.passbooks x WHERE x.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Passbook not found');
    END IF;
    IF b.status <> 'ACTIVE' THEN
        PERFORM corebank_internal.fail('CB409', format('The passbook is %s', b.status));
    END IF;
    IF last_entry <= b.starts_after_entry_id
       OR NOT EXISTS (SELECT FROM corebank.journal_entries e WHERE e.id = last_entry AND e.ledger_account_id = b.account_id) THEN
        PERFORM corebank_internal.fail('CB422', 'lastEntryId: is not a line of this passbook');
    END IF;
    IF last_entry = b.printed_through_entry_id THEN
        RETURN corebank_internal.passbook_json(id);
    END IF;
    IF last_entry < b.printed_through_entry_id THEN
        PERFORM corebank_internal.fail('CB409', format('Lines up to entry %s are already printed', b.printed_through_entry_id));
    END IF;
    UPDATE corebank.passbooks x SET printed_through_entry_id = last_entry WHERE x.id = id;
    RETURN corebank_internal.passbook_json(id);
END
$fn$;

-- standing orders

-- The k-th scheduled date from the start (months clamp to the month end).
CREATE FUNCTION corebank_internal.schedule_date(start_date date, frequency text, k int) RETURNS date
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT (start_date + CASE frequency
                             WHEN 'DAILY' THEN make_interval(days => k)
                             WHEN 'WEEKLY' THEN make_interval(days => 7 * k)
                             WHEN 'MONTHLY' THEN make_interval(months => k)
                             WHEN 'QUARTERLY' THEN make_interval(months => 3 * k)
                             WHEN 'YEARLY' THEN make_interval(years => k)
                         END)::date
$fn$;

-- CreateStandingOrderRequest (docs/design/deposits.md).
CREATE FUNCTION corebank.core_standing_orders_create(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    today date := corebank_internal.business_today();
    source record;
    target record;
    beneficiary corebank.beneficiaries;
    o corebank.standing_orders;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    o.source_account_id := corebank_internal.json_uuid(request, 'sourceAccountId');
    o.target_account_id := corebank_internal.json_uuid(request, 'targetAccountId');
    o.beneficiary_id := corebank_internal.json_uuid(request, 'beneficiaryId');
    o.amount_minor := corebank_internal.json_positive_amount(request);
    o.frequency := corebank_internal.json_enum(request, 'frequency', ARRAY['DAILY', 'WEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY']);
    o.start_date := corebank_internal.json_date(request, 'startDate');
    o.end_date := corebank_internal.json_date(request, 'endDate');
    o.description := corebank_internal.json_trimmed(request, 'description', 200);
    IF o.source_account_id IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'sourceAccountId: is required'); END IF;
    IF o.frequency IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'frequency: is required (DAILY, WEEKLY, MONTHLY, QUARTERLY or YEARLY)');
    END IF;
    IF o.start_date IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'startDate: is required'); END IF;
    IF o.start_date < today THEN
        PERFORM corebank_internal.fail('CBV00', format('startDate: must not be before the business date %s', today));
    END IF;
    IF o.end_date < o.start_date THEN
        PERFORM corebank_internal.fail('CBV00', 'endDate: must not be before startDate');
    END IF;
    IF o.beneficiary_id IS NOT NULL THEN
        IF o.target_account_id IS NOT NULL THEN
            PERFORM corebank_internal.fail('CBV00', 'targetAccountId: give targetAccountId or beneficiaryId, not both');
        END IF;
        SELECT * INTO beneficiary FROM corebank.beneficiaries b WHERE b.id = o.beneficiary_id AND b.active;
        IF NOT FOUND THEN
            PERFORM corebank_internal.fail('CB404', 'Beneficiary not found');
        END IF;
        IF beneficiary.account_id IS NULL THEN
            PERFORM corebank_internal.fail('CB422', 'Standing orders pay accounts of this bank; the beneficiary banks elsewhere');
        END IF;
        o.target_account_id := beneficiary.account_id;
    END IF;
    IF o.target_account_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'targetAccountId: is required (or beneficiaryId)');
    END IF;
    IF o.target_account_id = o.source_account_id THEN
        PERFORM corebank_internal.fail('CBV00', 'targetAccountId: must differ from sourceAccountId');
    END IF;
    SELECT * INTO source FROM corebank_internal.deposit_account_row(o.source_account_id, 'sourceAccountId');
    SELECT * INTO target FROM corebank_internal.deposit_account_row(o.target_account_id, 'targetAccountId');
    IF beneficiary.id IS NOT NULL AND beneficiary.customer_id IS DISTINCT FROM source.customer_id THEN
        PERFORM corebank_internal.fail('CB422', 'The beneficiary belongs to another customer');
    END IF;
    IF source.status = 'CLOSED' OR target.status = 'CLOSED' THEN
        PERFORM corebank_internal.fail('CB422', 'A standing order cannot involve a CLOSED account');
    END IF;
    IF source.currency <> target.currency THEN
        PERFORM corebank_internal.fail('CB422', 'A standing order moves money between accounts of one currency');
    END IF;
    PERFORM corebank_internal.money_currency_check(request, source.currency, source.account_number);
    INSERT INTO corebank.standing_orders AS x (reference, source_account_id, target_account_id, beneficiary_id,
        amount_minor, currency, frequency, start_date, end_date, next_run_date, description, created_by, updated_by)
    VALUES (coalesce(upper(corebank_internal.json_trimmed(request, 'reference', 30)),
                     'SO' || lpad(nextval('corebank.standing_order_number_seq')::text, 8, '0')),
            o.source_account_id, o.target_account_id, o.beneficiary_id, o.amount_minor, source.currency, o.frequency,
            o.start_date, o.end_date, o.start_date, o.description, actor, actor)
    ON CONFLICT DO NOTHING
    RETURNING x.* INTO o;
    IF o.id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'A standing order with this reference already exists');
    END IF;
    RETURN corebank_internal.standing_order_json(o.id);
END
$fn$;

CREATE FUNCTION corebank.core_standing_orders_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rendered jsonb := corebank_internal.standing_order_json(id);
BEGIN
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Standing order not found');
    END IF;
    RETURN rendered;
END
$fn$;

CREATE FUNCTION corebank.core_standing_orders_list(account_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF account_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'accountId: is required');
    END IF;
    IF NOT EXISTS (SELECT FROM corebank.deposit_accounts d WHERE d.id = account_id) THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.standing_order_json(o.id) ORDER BY o.created_at DESC, o.id), '[]'::jsonb)
            FROM (SELECT * FROM corebank.standing_orders x
                  WHERE x.source_account_id = account_id OR x.target_account_id = account_id
                  ORDER BY x.created_at DESC, x.id LIMIT 1000) o);
END
$fn$;

CREATE FUNCTION corebank_internal.standing_order_move(order_id uuid, allowed text[], to_status text, actor uuid,
                                                      verb text) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    current_status text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF order_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    SELECT o.status INTO current_status FROM corebank.standing_orders o WHERE o.id = order_id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Standing order not found');
    END IF;
    IF NOT current_status = ANY (allowed) THEN
        PERFORM corebank_internal.fail('CB409', format('Cannot %s a standing order that is %s', verb, current_status));
    END IF;
    UPDATE corebank.standing_orders o SET status = to_status, updated_at = now(), updated_by = actor WHERE o.id = order_id;
    RETURN corebank_internal.standing_order_json(order_id);
END
$fn$;

CREATE FUNCTION corebank.core_standing_orders_pause(id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.standing_order_move(id, ARRAY['ACTIVE'], 'PAUSED', actor, 'pause');
END
$fn$;

CREATE FUNCTION corebank.core_standing_orders_resume(id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.standing_order_move(id, ARRAY['PAUSED'], 'ACTIVE', actor, 'resume');
END
$fn$;

CREATE FUNCTION corebank.core_standing_orders_cancel(id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.standing_order_move(id, ARRAY['ACTIVE', 'PAUSED'], 'CANCELLED', actor, 'cancel');
END
$fn$;

-- Runs every ACTIVE order due on or before run_date, once per order and
-- date (the execution row's unique key), each payment in its own
-- subtransaction so that one failure does not stop the others.
CREATE FUNCTION corebank.core_standing_orders_execute(run_date date, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    operator uuid := coalesce(actor, corebank_internal.system_actor());
    today date := corebank_internal.business_today();
    due_id uuid;
    o corebank.standing_orders;
    execution_id uuid;
    paid_id uuid;
    failure text;
    k int;
    next_date date;
    results jsonb := '[]'::jsonb;
    succeeded int := 0;
    failed int := 0;
    repeated int := 0;
BEGIN
    IF run_date IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'date: is required');
    END IF;
    IF run_date > today THEN
        PERFORM corebank_internal.fail('CB422', format('date: must not be after the business date %s', today));
    END IF;
    -- Due orders, and orders already executed for this date (reported,
    -- never paid again).
    FOR due_id IN SELECT x.id FROM corebank.standing_orders x
                  WHERE (x.status = 'ACTIVE' AND x.next_run_date <= run_date)
                     OR EXISTS (SELECT FROM corebank.standing_order_executions e
                                WHERE e.standing_order_id = x.id AND e.execution_date = run_date)
                  ORDER BY x.next_run_date, x.reference LIMIT 10000 LOOP
        -- Re-read under the row lock: a concurrent execution may have moved it.
        SELECT * INTO o FROM corebank.standing_orders x WHERE x.id = due_id FOR UPDATE;
        execution_id := NULL;
        IF o.status = 'ACTIVE' AND o.next_run_date <= run_date THEN
            -- The unique key: a concurrent execution for this date waits here
            -- and then finds the row.
            INSERT INTO corebank.standing_order_executions AS e (standing_order_id, execution_date, scheduled_date,
                                                                 executed_by)
            VALUES (o.id, run_date, o.next_run_date, operator)
            ON CONFLICT (standing_order_id, execution_date) DO NOTHING
            RETURNING e.id INTO execution_id;
        END IF;
        IF execution_id IS NULL THEN
            IF NOT EXISTS (SELECT FROM corebank.standing_order_executions e
                           WHERE e.standing_order_id = o.id AND e.execution_date = run_date) THEN
                CONTINUE;
            END IF;
            repeated := repeated + 1;
            results := results || (
                SELECT jsonb_build_object(
                    'standingOrderId', o.id, 'reference', o.reference, 'scheduledDate', e.scheduled_date,
                    'outcome', 'ALREADY_EXECUTED', 'transactionId', e.transaction_id,
                    'amountMinor', o.amount_minor, 'amount', corebank_internal.money_text(o.amount_minor, o.currency),
                    'currency', o.currency,
                    'reason', format('already executed for %s (%s%s)', run_date, e.status,
                                     CASE WHEN e.reason IS NOT NULL THEN ': ' || e.reason ELSE '' END),
                    'nextRunDate', CASE WHEN o.status IN ('ACTIVE', 'PAUSED') THEN o.next_run_date END)
                FROM corebank.standing_order_executions e
                WHERE e.standing_order_id = o.id AND e.execution_date = run_date);
            CONTINUE;
        END IF;
        paid_id := NULL;
        failure := NULL;
        BEGIN
            paid_id := corebank_internal.money_transfer(jsonb_build_object(
                'fromAccountId', o.source_account_id, 'toAccountId', o.target_account_id, 'amountMinor', o.amount_minor,
                'reference', 'SO-' || o.reference || '-' || to_char(run_date, 'YYYYMMDD'), 'valueDate', run_date,
                'channel', 'STANDING_ORDER', 'branchId', (SELECT a.branch_id FROM corebank.ledger_accounts a WHERE a.id = o.source_account_id),
                'description', coalesce(o.description, 'Standing order ' || o.reference)), operator, false);
        EXCEPTION WHEN OTHERS THEN
            failure := SQLERRM;
        END;
        IF failure IS NULL THEN
            succeeded := succeeded + 1;
            k := o.periods_elapsed;
            next_date := o.next_run_date;
            -- Missed periods are not paid twice: move past run_date.
            WHILE next_date <= run_date LOOP
                k := k + 1;
                next_date := corebank_internal.schedule_date(o.start_date, o.frequency, k);
            END LOOP;
            UPDATE corebank.standing_order_executions e SET status = 'SUCCEEDED', transaction_id = paid_id
            WHERE e.id = execution_id;
            UPDATE corebank.standing_orders x
            SET periods_elapsed = k, next_run_date = next_date, last_run_date = run_date, consecutive_failures = 0,
                last_failure_reason = NULL,
                status = CASE WHEN x.end_date IS NOT NULL AND next_date > x.end_date THEN 'COMPLETED' ELSE x.status END,
                updated_at = now(), updated_by = operator
            WHERE x.id = o.id
            RETURNING x.* INTO o;
        ELSE
            failed := failed + 1;
            UPDATE corebank.standing_order_executions e SET status = 'FAILED', reason = left(failure, 1000)
            WHERE e.id = execution_id;
            UPDATE corebank.standing_orders x
            SET consecutive_failures = x.consecutive_failures + 1, last_failure_reason = left(failure, 1000),
                updated_at = now(), updated_by = operator
            WHERE x.id = o.id
            RETURNING x.* INTO o;
        END IF;
        results := results || jsonb_build_object(
            'standingOrderId', o.id, 'reference', o.reference,
            'scheduledDate', (SELECT e.scheduled_date FROM corebank.standing_order_executions e WHERE e.id = execution_id),
            'outcome', CASE WHEN failure IS NULL THEN 'SUCCEEDED' ELSE 'FAILED' END, 'transactionId', paid_id,
            'amountMinor', o.amount_minor, 'amount', corebank_internal.money_text(o.amount_minor, o.currency),
            'currency', o.currency, 'reason', failure,
            'nextRunDate', CASE WHEN o.status IN ('ACTIVE', 'PAUSED') THEN o.next_run_date END);
    END LOOP;
    RETURN jsonb_build_object('date', run_date, 'due', succeeded + failed + repeated, 'succeeded', succeeded,
                              'failed', failed, 'alreadyExecuted', repeated, 'results', results);
END
$fn$;

-- interest

-- One day of the daily run (docs/design/deposits.md, Interest). The caller
-- holds the run lock.
CREATE FUNCTION corebank_internal.interest_day(day date, operator uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    month_end bool := day = (date_trunc('month', day) + interval '1 month - 1 day')::date;
    period text := to_char(day, 'YYYY-MM');
    r record;
    accrual numeric;
    cumulative numeric;
    new_minor bigint;
    totals jsonb := '{}'::jsonb;
    total record;
    group_key text;
    group_currency text;
    group_branch uuid;
    journal_id uuid;
    batch_no int;
    interest_id uuid;
    fee_id uuid;
    skipped text;
    balance bigint;
    accrued int := 0;
    journals int := 0;
    postings int := 0;
    fees int := 0;
    fees_skipped int := 0;
    accrued_by_currency jsonb := '{}'::jsonb;
    posted_by_currency jsonb := '{}'::jsonb;
BEGIN
    -- The ledger rows first, in id order: the posting engine's lock order.
    PERFORM FROM corebank.ledger_accounts a JOIN corebank.deposit_accounts d ON d.id = a.id
    WHERE d.processed_through < day AND a.status <> 'CLOSED' ORDER BY a.id FOR UPDATE OF a;

    FOR r IN
        SELECT a.id, a.currency::text AS currency, a.branch_id,
               a.balance_minor - coalesce((SELECT sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE -e.amount_minor END)
                                           FROM corebank.journal_entries e
                                           WHERE e.ledger_account_id = a.id AND e.value_date > day), 0) AS balance,
               p.interest_method, p.annual_rate_bp, d.accrued_micro, d.accrued_minor,
               (SELECT jsonb_agg(jsonb_build_object('fromMinor', t.from_minor, 'rateBp', t.rate_bp) ORDER BY t.from_minor)
                FROM corebank.deposit_product_tiers t WHERE t.product_id = p.id) AS tiers
        FROM corebank.deposit_accounts d
        JOIN corebank.ledger_accounts a ON a.id = d.id
        JOIN corebank.deposit_products p ON p.id = d.product_id
        WHERE d.processed_through < day AND d.opened_on <= day AND a.status IN ('ACTIVE', 'DORMANT', 'FROZEN')
          AND p.interest_method <> 'NONE'
        ORDER BY a.id
    LOOP
        accrual := corebank_internal.interest_daily_micro(r.balance::bigint, r.accrued_micro::text, r.interest_method,
                                                          r.annual_rate_bp, r.tiers)::numeric;
        cumulative := r.accrued_micro + accrual;
        new_minor := corebank_internal.interest_micro_to_minor(cumulative::text);
        INSERT INTO corebank.interest_accruals (account_id, accrual_date, balance_minor, rate_bp, accrual_micro,
                                                cumulative_micro, journal_minor)
        VALUES (r.id, day, r.balance, corebank_internal.interest_effective_rate_bp(r.balance::bigint, r.annual_rate_bp, r.tiers),
                accrual, cumulative, new_minor - r.accrued_minor);
        UPDATE corebank.deposit_accounts d SET accrued_micro = cumulative, accrued_minor = new_minor, updated_at = now()
        WHERE d.id = r.id;
        accrued := accrued + 1;
        IF new_minor > r.accrued_minor THEN
            group_key := r.currency || '|' || r.branch_id::text;
            totals := jsonb_set(totals, ARRAY[group_key],
                                to_jsonb(coalesce((totals ->> group_key)::bigint, 0) + new_minor - r.accrued_minor));
        END IF;
    END LOOP;

    -- The day's accrual journal, per currency and branch.
    FOR total IN SELECT t.key, t.value::text::bigint AS amount FROM jsonb_each(totals) t ORDER BY t.key LOOP
        group_currency := split_part(total.key, '|', 1);
        group_branch := split_part(total.key, '|', 2)::uuid;
        batch_no := 1 + (SELECT count(*) FROM corebank.interest_accrual_journals j
                         WHERE j.accrual_date = day AND j.currency = group_currency AND j.branch_id = group_branch);
        journal_id := (corebank_internal.account_post(jsonb_build_object(
            'type', 'INTEREST_ACCRUAL',
            'reference', format('ACR-%s-%s-%s%s', to_char(day, 'YYYYMMDD'), group_currency,
                                (SELECT b.code FROM corebank.branches b WHERE b.id = group_branch),
                                CASE WHEN batch_no > 1 THEN '-' || batch_no END),
            'description', format('Daily interest accrual %s', day), 'valueDate', day, 'branchId', group_branch,
            'channel', 'SYSTEM', 'operatorId', operator,
            'lines', jsonb_build_array(
                jsonb_build_object('glAccountId', corebank_internal.gl_id('5000', group_currency), 'side', 'D',
                                   'amountMinor', total.amount, 'currency', group_currency),
                jsonb_build_object('glAccountId', corebank_internal.gl_id('2100', group_currency), 'side', 'C',
                                   'amountMinor', total.amount, 'currency', group_currency))),
            '{}'::jsonb) ->> 'id')::uuid;
        INSERT INTO corebank.interest_accrual_journals (transaction_id, accrual_date, currency, branch_id, amount_minor, batch)
        VALUES (journal_id, day, group_currency, group_branch, total.amount, batch_no);
        journals := journals + 1;
        accrued_by_currency := jsonb_set(accrued_by_currency, ARRAY[group_currency],
                                         to_jsonb(coalesce((accrued_by_currency ->> group_currency)::bigint, 0) + total.amount));
    END LOOP;

    IF month_end THEN
        FOR r IN
            SELECT a.id, a.account_number, a.currency::text AS currency, a.branch_id, a.status, a.allow_overdraft_minor,
                   d.accrued_minor, d.accrued_micro, p.monthly_fee_minor
            FROM corebank.deposit_accounts d
            JOIN corebank.ledger_accounts a ON a.id = d.id
            JOIN corebank.deposit_products p ON p.id = d.product_id
            WHERE d.processed_through < day AND d.opened_on <= day AND a.status <> 'CLOSED'
              AND (d.accrued_micro > 0 OR p.monthly_fee_minor > 0)
            ORDER BY a.id
        LOOP
            interest_id := NULL;
            fee_id := NULL;
            skipped := NULL;
            IF r.accrued_minor > 0 THEN
                interest_id := (corebank_internal.account_post(jsonb_build_object(
                    'type', 'INTEREST_ACCRUAL', 'reference', format('INT-%s-%s', to_char(day, 'YYYYMM'), r.account_number),
                    'description', format('Interest for %s', period), 'valueDate', day, 'branchId', r.branch_id,
                    'channel', 'SYSTEM', 'operatorId', operator,
                    'lines', jsonb_build_array(
                        jsonb_build_object('glAccountId', corebank_internal.gl_id('2100', r.currency), 'side', 'D',
                                           'amountMinor', r.accrued_minor, 'currency', r.currency),
                        jsonb_build_object('accountId', r.id, 'side', 'C', 'amountMinor', r.accrued_minor,
                                           'currency', r.currency, 'narrative', format('Interest %s', period)))),
                    '{}'::jsonb) ->> 'id')::uuid;
                postings := postings + 1;
                posted_by_currency := jsonb_set(posted_by_currency, ARRAY[r.currency],
                    to_jsonb(coalesce((posted_by_currency ->> r.currency)::bigint, 0) + r.accrued_minor));
            END IF;
            -- The month's sub-cent remainder is not carried over.
            UPDATE corebank.deposit_accounts d SET accrued_micro = 0, accrued_minor = 0, updated_at = now()
            WHERE d.id = r.id AND d.accrued_micro <> 0;
            IF r.monthly_fee_minor > 0 THEN
                SELECT a.balance_minor INTO balance FROM corebank.ledger_accounts a WHERE a.id = r.id;
                IF r.status <> 'ACTIVE' THEN
                    skipped := format('account is %s', r.status);
                ELSIF balance - r.monthly_fee_minor < -r.allow_overdraft_minor THEN
                    skipped := 'insufficient funds for the maintenance fee';
                ELSE
                    fee_id := (corebank_internal.account_post(jsonb_build_object(
                        'type', 'FEE', 'reference', format('FEE-%s-%s', to_char(day, 'YYYYMM'), r.account_number),
                        'description', format('Maintenance fee %s', period), 'valueDate', day, 'branchId', r.branch_id,
                        'channel', 'SYSTEM', 'operatorId', operator,
                        'lines', jsonb_build_array(
                            jsonb_build_object('accountId', r.id, 'side', 'D', 'amountMinor', r.monthly_fee_minor,
                                               'currency', r.currency, 'narrative', format('Maintenance fee %s', period)),
                            jsonb_build_object('glAccountId', corebank_internal.gl_id('4100', r.currency), 'side', 'C',
                                               'amountMinor', r.monthly_fee_minor, 'currency', r.currency))),
                        '{}'::jsonb) ->> 'id')::uuid;
                    fees := fees + 1;
                END IF;
                IF skipped IS NOT NULL THEN
                    fees_skipped := fees_skipped + 1;
                END IF;
            END IF;
            IF interest_id IS NOT NULL OR fee_id IS NOT NULL OR skipped IS NOT NULL THEN
                INSERT INTO corebank.account_month_ends (account_id, period, interest_minor, interest_transaction_id,
                                                         fee_minor, fee_transaction_id, fee_skipped_reason)
                VALUES (r.id, period, CASE WHEN interest_id IS NOT NULL THEN r.accrued_minor ELSE 0 END, interest_id,
                        CASE WHEN fee_id IS NOT NULL THEN r.monthly_fee_minor ELSE 0 END, fee_id, skipped);
            END IF;
        END LOOP;
    END IF;

    UPDATE corebank.deposit_accounts d SET processed_through = day, updated_at = now()
    FROM corebank.ledger_accounts a
    WHERE a.id = d.id AND d.processed_through < day AND a.status <> 'CLOSED';
    RETURN jsonb_build_object('accrued', accrued, 'journals', journals, 'postings', postings, 'fees', fees,
                              'feesSkipped', fees_skipped, 'accruedByCurrency', accrued_by_currency,
                              'postedByCurrency', posted_by_currency);
END
$fn$;

CREATE FUNCTION corebank_internal.currency_totals_add(totals jsonb, more jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT coalesce(jsonb_object_agg(k, v), '{}'::jsonb)
    FROM (SELECT x.key AS k, sum(x.value::text::bigint) AS v
          FROM (SELECT * FROM jsonb_each(totals) UNION ALL SELECT * FROM jsonb_each(more)) x GROUP BY x.key) s
$fn$;

-- InterestRunResponse. Days from each account's processed_through + 1 up to
-- run_date (at most 366); one run at a time.
CREATE FUNCTION corebank.core_interest_run(run_date date, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    operator uuid := coalesce(actor, corebank_internal.system_actor());
    today date := corebank_internal.business_today();
    first_day date;
    day date;
    stats jsonb;
    days int := 0;
    accrued int := 0;
    journals int := 0;
    postings int := 0;
    fees int := 0;
    fees_skipped int := 0;
    accrued_by_currency jsonb := '{}'::jsonb;
    posted_by_currency jsonb := '{}'::jsonb;
BEGIN
    IF run_date IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'date: is required');
    END IF;
    IF run_date > today THEN
        PERFORM corebank_internal.fail('CB422', format('date: must not be after the business date %s', today));
    END IF;
    -- Two runs at once would accrue the same day twice in their snapshots.
    PERFORM pg_advisory_xact_lock(hashtext('corebank.core_interest_run'));
    SELECT min(d.processed_through) + 1 INTO first_day
    FROM corebank.deposit_accounts d JOIN corebank.ledger_accounts a ON a.id = d.id
    WHERE a.status <> 'CLOSED' AND d.processed_through < run_date;
    IF first_day IS NOT NULL THEN
        first_day := greatest(first_day, run_date - 365);
        FOR day IN SELECT g::date FROM generate_series(first_day, run_date, interval '1 day') AS g LOOP
            stats := corebank_internal.interest_day(day, operator);
            days := days + 1;
            accrued := accrued + (stats ->> 'accrued')::int;
            journals := journals + (stats ->> 'journals')::int;
            postings := postings + (stats ->> 'postings')::int;
            fees := fees + (stats ->> 'fees')::int;
            fees_skipped := fees_skipped + (stats ->> 'feesSkipped')::int;
            accrued_by_currency := corebank_internal.currency_totals_add(accrued_by_currency, stats -> 'accruedByCurrency');
            posted_by_currency := corebank_internal.currency_totals_add(posted_by_currency, stats -> 'postedByCurrency');
        END LOOP;
    END IF;
    RETURN jsonb_build_object(
        'runDate', run_date, 'daysProcessed', days, 'accountsAccrued', accrued, 'accrualTransactions', journals,
        'accrualsMinor', (SELECT coalesce(jsonb_agg(jsonb_build_object('currency', x.key, 'amountMinor', x.value::text::bigint)
                                                    ORDER BY x.key), '[]'::jsonb) FROM jsonb_each(accrued_by_currency) x),
        'interestPostings', postings,
        'interestPostedMinor', (SELECT coalesce(jsonb_agg(jsonb_build_object('currency', x.key, 'amountMinor', x.value::text::bigint)
                                                          ORDER BY x.key), '[]'::jsonb) FROM jsonb_each(posted_by_currency) x),
        'feesCharged', fees, 'feesSkipped', fees_skipped);
END
$fn$;

CREATE FUNCTION corebank.core_interest_accruals_list(account_id uuid, from_date date, to_date date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    today date := corebank_internal.business_today();
    first_day date := coalesce(from_date, date_trunc('month', today)::date);
    last_day date := coalesce(to_date, today);
BEGIN
    IF NOT EXISTS (SELECT FROM corebank.deposit_accounts d WHERE d.id = account_id) THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    IF last_day < first_day OR last_day - first_day > 366 THEN
        PERFORM corebank_internal.fail('CBV00', 'to: must be on or after from and at most 366 days later');
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object(
                       'date', i.accrual_date, 'balanceMinor', i.balance_minor, 'rateBp', i.rate_bp,
                       'accrualMicro', i.accrual_micro::text, 'cumulativeMicro', i.cumulative_micro::text,
                       'journalMinor', i.journal_minor) ORDER BY i.accrual_date), '[]'::jsonb)
            FROM corebank.interest_accruals i
            WHERE i.account_id = account_id AND i.accrual_date BETWEEN first_day AND last_day);
END
$fn$;

-- Posts one account's accrued interest now (before closing it).
CREATE FUNCTION corebank.core_accounts_interest_post(id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    a record;
    d corebank.deposit_accounts;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    SELECT * INTO a FROM corebank_internal.deposit_account_row(id, 'id', true);
    SELECT * INTO d FROM corebank.deposit_accounts x WHERE x.id = id FOR UPDATE;
    IF d.accrued_minor > 0 THEN
        PERFORM corebank_internal.account_post(jsonb_build_object(
            'type', 'INTEREST_ACCRUAL', 'reference', format('INT-%s-%s', to_char(corebank_internal.business_today(), 'YYYYMMDD'),
                                                            a.account_number),
            'description', 'Accrued interest posted on request', 'branchId', a.branch_id, 'channel', 'SYSTEM',
            'operatorId', actor, 'makerId', actor,
            'lines', jsonb_build_array(
                jsonb_build_object('glAccountId', corebank_internal.gl_id('2100', a.currency), 'side', 'D',
                                   'amountMinor', d.accrued_minor, 'currency', a.currency),
                jsonb_build_object('accountId', id, 'side', 'C', 'amountMinor', d.accrued_minor, 'currency', a.currency,
                                   'narrative', 'Accrued interest'))),
            '{}'::jsonb);
    END IF;
    UPDATE corebank.deposit_accounts x SET accrued_micro = 0, accrued_minor = 0, updated_at = now()
    WHERE x.id = id AND x.accrued_micro <> 0;
    RETURN corebank_internal.account_json(id);
END
$fn$;

-- dormancy

-- ACTIVE accounts whose product has dormancy_days and whose last
-- customer-initiated posting (or opening) is that many days before run_date.
CREATE FUNCTION corebank.core_dormancy_run(run_date date, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    operator uuid := coalesce(actor, corebank_internal.system_actor());
    today date := corebank_internal.business_today();
    r record;
    marked jsonb := '[]'::jsonb;
BEGIN
    IF run_date IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'date: is required');
    END IF;
    IF run_date > today THEN
        PERFORM corebank_internal.fail('CB422', format('date: must not be after the business date %s', today));
    END IF;
    FOR r IN
        SELECT a.id, a.account_number, coalesce(d.last_customer_activity_on, d.opened_on) AS last_activity, p.dormancy_days
        FROM corebank.ledger_accounts a
        JOIN corebank.deposit_accounts d ON d.id = a.id
        JOIN corebank.deposit_products p ON p.id = d.product_id
        WHERE a.status = 'ACTIVE' AND p.dormancy_days IS NOT NULL
          AND coalesce(d.last_customer_activity_on, d.opened_on) + p.dormancy_days <= run_date
        ORDER BY a.id
        FOR UPDATE OF a
    LOOP
        PERFORM corebank_internal.account_status_set(r.id, 'DORMANT',
            format('no customer-initiated posting for %s days', r.dormancy_days), operator);
        marked := marked || jsonb_build_object('accountId', r.id, 'accountNumber', r.account_number,
                                               'lastCustomerActivityOn', r.last_activity);
    END LOOP;
    RETURN jsonb_build_object('runDate', run_date, 'markedDormant', jsonb_array_length(marked), 'accounts', marked);
END
$fn$;

-- privileges
--
-- As in 1.0 and 1.1: corebank_app executes the API functions and touches no
-- table. The auditor reads the lifecycle history and the interest trail;
-- reporting also reads products, accounts, rates, passbooks and standing
-- orders. Customer identity and CIF data are for the API only.

REVOKE ALL ON ALL TABLES IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA corebank_internal FROM PUBLIC;

GRANT EXECUTE ON FUNCTION
    corebank.core_customers_create(jsonb, uuid),
    corebank.core_customers_get(uuid),
    corebank.core_customers_list(jsonb),
    corebank.core_customers_signing_mandate_set(uuid, jsonb, uuid),
    corebank.core_customers_profile_get(uuid),
    corebank.core_customers_profile_patch(uuid, jsonb, uuid),
    corebank.core_customers_interaction_add(uuid, jsonb, uuid),
    corebank.core_customers_interactions_list(uuid, int, int),
    corebank.core_customers_case_open(uuid, jsonb, uuid),
    corebank.core_customers_cases_list(uuid),
    corebank.core_customers_case_resolve(uuid, uuid, jsonb, uuid),
    corebank.core_customers_beneficial_owner_add(uuid, jsonb, uuid),
    corebank.core_customers_beneficial_owners_list(uuid),
    corebank.core_customers_beneficial_owner_remove(uuid, uuid, uuid),
    corebank.core_customers_beneficiary_add(uuid, jsonb, uuid),
    corebank.core_customers_beneficiaries_list(uuid),
    corebank.core_customers_beneficiary_remove(uuid, uuid, uuid),
    corebank.core_customers_kyc_get(uuid),
    corebank.core_customers_kyc_risk_set(uuid, jsonb, uuid),
    corebank.core_customers_kyc_review_record(uuid, jsonb, uuid),
    corebank.core_customers_kyc_reviews_due(date),
    corebank.core_customers_kyc_document_add(uuid, jsonb, uuid),
    corebank.core_customers_kyc_document_verify_request(uuid, jsonb, uuid),
    corebank.core_customers_kyc_checks_run(uuid, jsonb, uuid),
    corebank.core_customers_profitability(uuid, date, date),
    corebank.core_deposit_products_list(jsonb),
    corebank.core_deposit_products_get(uuid),
    corebank.core_deposit_products_get_by_code(text),
    corebank.core_deposit_products_update(uuid, jsonb, uuid),
    corebank.core_accounts_open(jsonb, uuid),
    corebank.core_accounts_get(uuid),
    corebank.core_accounts_get_by_number(text),
    corebank.core_accounts_list(jsonb),
    corebank.core_accounts_activate(uuid, jsonb, uuid),
    corebank.core_accounts_freeze(uuid, jsonb, uuid),
    corebank.core_accounts_unfreeze(uuid, jsonb, uuid),
    corebank.core_accounts_reactivate(uuid, jsonb, uuid),
    corebank.core_accounts_close(uuid, jsonb, uuid),
    corebank.core_accounts_status_history(uuid),
    corebank.core_accounts_balance(uuid, date),
    corebank.core_statement(uuid, date, date),
    corebank.core_deposit(jsonb, uuid),
    corebank.core_withdraw(jsonb, uuid),
    corebank.core_transfer(jsonb, uuid),
    corebank.core_fee(jsonb, uuid),
    corebank.core_fx_rates_set(jsonb, uuid),
    corebank.core_fx_rates_get(text, text, date),
    corebank.core_fx_rates_list(jsonb),
    corebank.core_passbook_issue(uuid, uuid),
    corebank.core_passbook_get(uuid),
    corebank.core_passbook_list(uuid),
    corebank.core_passbook_reprint(uuid, jsonb, uuid),
    corebank.core_passbook_unprinted(uuid, int),
    corebank.core_passbook_print_confirm(uuid, jsonb, uuid),
    corebank.core_standing_orders_create(jsonb, uuid),
    corebank.core_standing_orders_get(uuid),
    corebank.core_standing_orders_list(uuid),
    corebank.core_standing_orders_pause(uuid, uuid),
    corebank.core_standing_orders_resume(uuid, uuid),
    corebank.core_standing_orders_cancel(uuid, uuid),
    corebank.core_standing_orders_execute(date, uuid),
    corebank.core_interest_run(date, uuid),
    corebank.core_interest_accruals_list(uuid, date, date),
    corebank.core_accounts_interest_post(uuid, uuid),
    corebank.core_dormancy_run(date, uuid)
TO corebank_app;

GRANT SELECT ON corebank.account_status_history, corebank.interest_accruals, corebank.interest_accrual_journals,
                corebank.account_month_ends, corebank.exchange_rates
    TO corebank_auditor, corebank_reporting;
GRANT SELECT ON corebank.deposit_products, corebank.deposit_product_tiers, corebank.deposit_accounts,
                corebank.passbooks, corebank.standing_orders, corebank.standing_order_executions
    TO corebank_reporting;
