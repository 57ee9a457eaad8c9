/* sql/corebank--1.5--1.6.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION corebank UPDATE TO '1.6'" to load this file. \quit

-- corebank 1.6: one place for every rule (issue 11).
--   Each section below belongs to one part of the issue; the sections are
--   independent of each other.

-- == section: limits and the money domain (issue 11, part 2) ==
--
-- The fixed limits SQL needs are read from extension/core/limits.hpp
-- through the functions below (entry/limits.cpp), so each number is written
-- once, in C++, for the extension, the tier and SQL alike. IMMUTABLE: the
-- planner folds each call into a constant.

-- The largest amount of one movement of money, in minor units: limits::amount_minor_max.
CREATE FUNCTION corebank_internal.limit_amount_minor_max() RETURNS bigint
    AS 'MODULE_PATHNAME', 'limit_amount_minor_max' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The rows of a page of a list when the caller names no size: limits::page_size_default.
CREATE FUNCTION corebank_internal.limit_page_size_default() RETURNS int
    AS 'MODULE_PATHNAME', 'limit_page_size_default' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The most rows a page of a list may have: limits::page_size_max.
CREATE FUNCTION corebank_internal.limit_page_size_max() RETURNS int
    AS 'MODULE_PATHNAME', 'limit_page_size_max' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Requests per minute of an API key whose creator names none: limits::api_key_requests_per_minute_default.
CREATE FUNCTION corebank_internal.limit_api_key_requests_per_minute_default() RETURNS int
    AS 'MODULE_PATHNAME', 'limit_api_key_requests_per_minute_default' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The most requests per minute an API key may be given: limits::api_key_requests_per_minute_max.
CREATE FUNCTION corebank_internal.limit_api_key_requests_per_minute_max() RETURNS int
    AS 'MODULE_PATHNAME', 'limit_api_key_requests_per_minute_max' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

REVOKE ALL ON FUNCTION corebank_internal.limit_amount_minor_max(), corebank_internal.limit_page_size_default(),
    corebank_internal.limit_page_size_max(), corebank_internal.limit_api_key_requests_per_minute_default(),
    corebank_internal.limit_api_key_requests_per_minute_max() FROM PUBLIC;

-- One amount of money, in minor units: 0 to limits::amount_minor_max
-- (10^15). Every column that holds one movement or one configured amount is
-- this domain; a column that must be positive adds its own CHECK (> 0).
-- Balances and sums (ledger_accounts.balance_minor, the GL stripes, a
-- month's interest and fees, accruals) are not: they may be negative or
-- exceed one amount, stay bigint, and the posting engine checks them for
-- overflow. The CHECK calls the limit's function, so the catalog holds no
-- copy of the number; rows are written by the API functions (SECURITY
-- DEFINER), as the extension's owner, which may execute it.
CREATE DOMAIN corebank.amount_minor AS bigint
    CONSTRAINT amount_minor_range CHECK (VALUE BETWEEN 0 AND corebank_internal.limit_amount_minor_max());
COMMENT ON DOMAIN corebank.amount_minor IS
    'One amount of money in minor units, 0 to 10^15 (extension/core/limits.hpp, amount_minor_max)';

-- The money columns take the domain; the CHECKs that wrote the cap out are
-- dropped, and those that also required a positive amount keep that part.
ALTER TABLE corebank.journal_entries
    DROP CONSTRAINT journal_entries_amount,
    ALTER COLUMN amount_minor TYPE corebank.amount_minor,
    ADD CONSTRAINT journal_entries_amount CHECK (amount_minor > 0);
ALTER TABLE corebank.transaction_lines_proposed
    DROP CONSTRAINT transaction_lines_proposed_amount,
    ALTER COLUMN amount_minor TYPE corebank.amount_minor,
    ADD CONSTRAINT transaction_lines_proposed_amount CHECK (amount_minor > 0);
ALTER TABLE corebank.standing_orders
    DROP CONSTRAINT standing_orders_amount,
    ALTER COLUMN amount_minor TYPE corebank.amount_minor,
    ADD CONSTRAINT standing_orders_amount CHECK (amount_minor > 0);
ALTER TABLE corebank.interest_accrual_journals
    ALTER COLUMN amount_minor TYPE corebank.amount_minor;
ALTER TABLE corebank.gl_budgets
    DROP CONSTRAINT gl_budgets_amount,
    ALTER COLUMN amount_minor TYPE corebank.amount_minor;
ALTER TABLE corebank.ledger_accounts
    DROP CONSTRAINT ledger_accounts_overdraft,
    ALTER COLUMN allow_overdraft_minor TYPE corebank.amount_minor;
ALTER TABLE corebank.deposit_products
    DROP CONSTRAINT deposit_products_amounts,
    ALTER COLUMN minimum_balance_minor TYPE corebank.amount_minor,
    ALTER COLUMN minimum_opening_minor TYPE corebank.amount_minor,
    ALTER COLUMN monthly_fee_minor TYPE corebank.amount_minor,
    ALTER COLUMN withdrawal_fee_minor TYPE corebank.amount_minor,
    ALTER COLUMN allow_overdraft_minor TYPE corebank.amount_minor;
ALTER TABLE corebank.deposit_product_tiers
    DROP CONSTRAINT deposit_product_tiers_from,
    ALTER COLUMN from_minor TYPE corebank.amount_minor;
ALTER TABLE corebank.customer_profiles
    DROP CONSTRAINT customer_profiles_income,
    ALTER COLUMN declared_income_minor TYPE corebank.amount_minor,
    ADD CONSTRAINT customer_profiles_income
        CHECK ((declared_income_minor IS NULL) = (income_currency IS NULL)
               AND (declared_income_minor IS NULL) = (income_frequency IS NULL));
ALTER TABLE corebank.api_keys
    DROP CONSTRAINT api_keys_rate_limit,
    ADD CONSTRAINT api_keys_rate_limit
        CHECK (rate_limit_per_minute BETWEEN 1 AND corebank_internal.limit_api_key_requests_per_minute_max());

-- The functions that wrote a limit out read it from its function instead;
-- each is its 1.5 definition (sql/<domain>/<name>/latest.sql) with only
-- that changed.

-- A decimal amount ("12.34" or 12.34) or amountMinor to minor units.
CREATE OR REPLACE FUNCTION corebank_internal.json_amount_minor(request jsonb) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    minor corebank.amount_minor := corebank_internal.json_int(request, 'amountMinor', 0, corebank_internal.limit_amount_minor_max());
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

-- Opens a customer (ledger) account on a control GL account. Internal for
-- the ledger tests; issue 4 puts products and lifecycle around it.
-- Request: {accountNumber?, customerId?, name?, glAccountId? | glAccountCode?,
-- currency? (default USD), branchId? | branchCode? (default head office),
-- allowOverdraftMinor? (default 0)}.
CREATE OR REPLACE FUNCTION corebank.ledger_account_open(request jsonb) RETURNS jsonb
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
    overdraft corebank.amount_minor := coalesce(corebank_internal.json_int(request, 'allowOverdraftMinor', 0,
                                                                           corebank_internal.limit_amount_minor_max()), 0);
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

CREATE OR REPLACE FUNCTION corebank_internal.account_json(account uuid) RETURNS jsonb
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
                                                corebank_internal.limit_amount_minor_max()), 0)
                            ELSE 0 END::bigint AS available) x
            WHERE d.id = account);
END
$fn$;

-- UpdateDepositProductRequest: omitted members keep their value; tiers is a
-- full replace ([] removes them). The trigger freezes code, type and
-- currency once an account uses the product.
CREATE OR REPLACE FUNCTION corebank.core_deposit_products_update(id uuid, request jsonb, actor uuid) RETURNS jsonb
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
    p.minimum_balance_minor := coalesce(corebank_internal.json_int(request, 'minimumBalanceMinor', 0, corebank_internal.limit_amount_minor_max()),
                                        p.minimum_balance_minor);
    p.minimum_opening_minor := coalesce(corebank_internal.json_int(request, 'minimumOpeningMinor', 0, corebank_internal.limit_amount_minor_max()),
                                        p.minimum_opening_minor);
    p.monthly_fee_minor := coalesce(corebank_internal.json_int(request, 'monthlyFeeMinor', 0, corebank_internal.limit_amount_minor_max()),
                                    p.monthly_fee_minor);
    p.withdrawal_fee_minor := coalesce(corebank_internal.json_int(request, 'withdrawalFeeMinor', 0, corebank_internal.limit_amount_minor_max()),
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
               OR corebank_internal.json_int(tier, 'fromMinor', 0, corebank_internal.limit_amount_minor_max()) IS NULL
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

CREATE OR REPLACE FUNCTION corebank_internal.page_bounds(page int, size int) RETURNS int[]
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF coalesce(page, 0) NOT BETWEEN 0 AND 1000000 THEN
        PERFORM corebank_internal.fail('CBV00', 'page: must be from 0 to 1000000');
    END IF;
    IF coalesce(size, corebank_internal.limit_page_size_default()) NOT BETWEEN 1 AND corebank_internal.limit_page_size_max() THEN
        PERFORM corebank_internal.fail('CBV00', format('size: must be from 1 to %s', corebank_internal.limit_page_size_max()));
    END IF;
    RETURN ARRAY[coalesce(page, 0), coalesce(size, corebank_internal.limit_page_size_default())];
END
$fn$;

-- Filter: {customerId?, status?, accountType?, productCode?, currency?, page?, size?}.
CREATE OR REPLACE FUNCTION corebank.core_accounts_list(filter jsonb) RETURNS jsonb
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
                                                  corebank_internal.json_int(f, 'size', 1, corebank_internal.limit_page_size_max())::int);
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

-- Filter: {type?, status?, riskCategory?, q? (name or number contains), page?, size?}.
CREATE OR REPLACE FUNCTION corebank.core_customers_list(filter jsonb) RETURNS jsonb
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
                                                  corebank_internal.json_int(f, 'size', 1, corebank_internal.limit_page_size_max())::int);
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

CREATE OR REPLACE FUNCTION corebank.core_approvals_list(status text, page int, size int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    wanted text := upper(nullif(btrim(status), ''));
    page_number int := coalesce(page, 0);
    page_size int := coalesce(size, corebank_internal.limit_page_size_default());
    total bigint;
    content jsonb;
BEGIN
    IF wanted NOT IN ('PENDING', 'APPROVED', 'REJECTED', 'LAPSED') THEN
        PERFORM corebank_internal.fail('CBV00', 'status: must be PENDING, APPROVED, REJECTED or LAPSED');
    END IF;
    IF page_number NOT BETWEEN 0 AND 1000000 THEN
        PERFORM corebank_internal.fail('CBV00', 'page: must be from 0 to 1000000');
    END IF;
    IF page_size NOT BETWEEN 1 AND corebank_internal.limit_page_size_max() THEN
        PERFORM corebank_internal.fail('CBV00', format('size: must be from 1 to %s', corebank_internal.limit_page_size_max()));
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

-- Filter: from, to (value dates), type, status, state (same values as
-- status), reference (exact), glAccountCode, page (0-based), size (1 to
-- limit_page_size_max(), default limit_page_size_default()). Newest first (created_at desc, id).
CREATE OR REPLACE FUNCTION corebank.core_transaction_search(filter jsonb) RETURNS jsonb
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
    page_size := coalesce(corebank_internal.json_int(f, 'size', 1, corebank_internal.limit_page_size_max()), corebank_internal.limit_page_size_default());
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

-- The tier generates the key and passes only its SHA-256 and a short
-- display prefix. actor may be NULL (the first key, made by the CLI). The
-- limit defaults to limit_api_key_requests_per_minute_default() (core/limits.hpp).
CREATE OR REPLACE FUNCTION corebank.core_api_key_create(service text, name text, scopes text[], caller_id text,
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
    IF rate_limit_per_minute IS NOT NULL AND rate_limit_per_minute NOT BETWEEN 1 AND corebank_internal.limit_api_key_requests_per_minute_max() THEN
        PERFORM corebank_internal.fail('CBV00', format('rateLimitPerMinute: must be from 1 to %s', corebank_internal.limit_api_key_requests_per_minute_max()));
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
            coalesce(rate_limit_per_minute, corebank_internal.limit_api_key_requests_per_minute_default()), actor)
    ON CONFLICT DO NOTHING
    RETURNING k.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'An API key with this hash already exists');
    END IF;
    RETURN corebank_internal.api_key_json(new_id);
END
$fn$;

-- RETURN QUERY needs each column's declared type exactly: the journal's
-- amount is a corebank.amount_minor, the result column a bigint.
-- A customer account's entries with value dates in [from_date, to_date],
-- with the running balance (credits - debits) from the opening balance of
-- everything before from_date. At most 366 days per call.
CREATE OR REPLACE FUNCTION corebank.account_statement(account uuid, from_date date, to_date date)
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
           CASE x.side WHEN 'D' THEN 'DEBIT' ELSE 'CREDIT' END, x.amount_minor::bigint, x.narrative, opening,
           (opening + sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE -x.amount_minor END)
                          OVER (ORDER BY x.value_date, x.id))::bigint
    FROM corebank.journal_entries x
    JOIN corebank.transactions t ON t.id = x.transaction_id
    WHERE x.ledger_account_id = account AND x.value_date BETWEEN from_date AND to_date
    ORDER BY x.value_date, x.id;
END
$fn$;

-- == section: one append-only trigger (issue 11, part 3) ==
--
-- Every append-only table refuses UPDATE, DELETE and TRUNCATE through one C++
-- trigger function, corebank_internal.refuse_change()
-- (extension/entry/append_only_trigger.cpp), with one SQLSTATE and one
-- message form:
--   ERROR:  corebank.<table> is append-only      (SQLSTATE 42501)
--   DETAIL: <UPDATE|DELETE|TRUNCATE> refused
-- Before 1.6 five functions did it (refuse_audit_change, events_immutable,
-- verify_refuse_event_change, journal_immutable, deposits_append_only), with
-- five wordings and two SQLSTATEs: 42501 and CB422. 42501
-- (insufficient_privilege) is the one kept: rewriting history is a privilege
-- nobody holds, the owner and superusers included, and it is the code a role
-- without UPDATE or DELETE on the table gets too. It is not of the class
-- "CB" on purpose: those carry a client's mistake to HTTP verbatim, while no
-- API function updates or deletes these rows, so if this error ever reached
-- the tier it would be a server fault (the tier answers 500 and logs it).
--
-- Trigger arguments name the columns an UPDATE may still change: events keep
-- the one exception they had, a customer merge moving customer_id (the
-- detail then reads "UPDATE refused; only customer_id may change").
-- docs/ledger.md lists the tables; pgtap/append_only.sql tries every one and
-- fails when an append-only table lacks the trigger.
CREATE FUNCTION corebank_internal.refuse_change() RETURNS trigger
    AS 'MODULE_PATHNAME', 'refuse_change' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
REVOKE ALL ON FUNCTION corebank_internal.refuse_change() FROM PUBLIC;

-- The row triggers keep their names (CREATE OR REPLACE re-points them); the
-- statement triggers refuse TRUNCATE. transaction_lines_proposed gains the
-- TRUNCATE refusal it lacked.
CREATE OR REPLACE TRIGGER auth_audit_append_only
    BEFORE UPDATE OR DELETE ON corebank.auth_audit
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER auth_audit_no_truncate
    BEFORE TRUNCATE ON corebank.auth_audit
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

CREATE OR REPLACE TRIGGER journal_entries_immutable
    BEFORE UPDATE OR DELETE ON corebank.journal_entries
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER journal_entries_no_truncate
    BEFORE TRUNCATE ON corebank.journal_entries
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER transaction_lines_proposed_immutable
    BEFORE UPDATE OR DELETE ON corebank.transaction_lines_proposed
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE TRIGGER transaction_lines_proposed_no_truncate
    BEFORE TRUNCATE ON corebank.transaction_lines_proposed
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

CREATE OR REPLACE TRIGGER events_immutable
    BEFORE UPDATE OR DELETE ON corebank.events
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change('customer_id');
CREATE OR REPLACE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON corebank.events
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

CREATE OR REPLACE TRIGGER verify_session_events_append_only
    BEFORE UPDATE OR DELETE ON corebank.verify_session_events
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER verify_session_events_no_truncate
    BEFORE TRUNCATE ON corebank.verify_session_events
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

CREATE OR REPLACE TRIGGER customer_interactions_append_only
    BEFORE UPDATE OR DELETE ON corebank.customer_interactions
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER customer_interactions_no_truncate
    BEFORE TRUNCATE ON corebank.customer_interactions
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER kyc_checks_append_only
    BEFORE UPDATE OR DELETE ON corebank.kyc_checks
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER kyc_checks_no_truncate
    BEFORE TRUNCATE ON corebank.kyc_checks
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER kyc_reviews_append_only
    BEFORE UPDATE OR DELETE ON corebank.kyc_reviews
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER kyc_reviews_no_truncate
    BEFORE TRUNCATE ON corebank.kyc_reviews
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER account_status_history_append_only
    BEFORE UPDATE OR DELETE ON corebank.account_status_history
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER account_status_history_no_truncate
    BEFORE TRUNCATE ON corebank.account_status_history
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER exchange_rates_append_only
    BEFORE UPDATE OR DELETE ON corebank.exchange_rates
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER exchange_rates_no_truncate
    BEFORE TRUNCATE ON corebank.exchange_rates
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER interest_accruals_append_only
    BEFORE UPDATE OR DELETE ON corebank.interest_accruals
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER interest_accruals_no_truncate
    BEFORE TRUNCATE ON corebank.interest_accruals
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER interest_accrual_journals_append_only
    BEFORE UPDATE OR DELETE ON corebank.interest_accrual_journals
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER interest_accrual_journals_no_truncate
    BEFORE TRUNCATE ON corebank.interest_accrual_journals
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

-- Tables with rules of their own (customers, CIF cases, deposit accounts)
-- have their rows kept by their guards; their TRUNCATE was refused by
-- deposits_append_only and now is by refuse_change.
CREATE OR REPLACE TRIGGER customers_no_truncate
    BEFORE TRUNCATE ON corebank.customers
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER customer_cases_no_truncate
    BEFORE TRUNCATE ON corebank.customer_cases
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER deposit_accounts_no_truncate
    BEFORE TRUNCATE ON corebank.deposit_accounts
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

-- The five functions refuse_change replaced. journal_immutable and
-- deposits_append_only name C symbols that stay in corebank.so as aliases
-- of refuse_change: CREATE EXTENSION runs 1.1 and 1.4, which create them,
-- before this script drops them.
DROP FUNCTION corebank_internal.refuse_audit_change();
DROP FUNCTION corebank_internal.events_immutable();
DROP FUNCTION corebank_internal.verify_refuse_event_change();
DROP FUNCTION corebank_internal.journal_immutable();
DROP FUNCTION corebank_internal.deposits_append_only();

-- A token is live when it is unexpired and, for a user token, its session is
-- neither revoked nor expired and its user is ACTIVE, or, for a client
-- token, its client is ACTIVE. auth_authenticate and auth_introspect each
-- wrote this predicate out until 1.6. LANGUAGE sql, STABLE, no SET clause and
-- not SECURITY DEFINER, so that the planner inlines it into the callers'
-- query: the token is still found by its primary key, and the sessions,
-- users and clients by theirs (EXPLAIN shows the same plan as before 1.6).
CREATE FUNCTION corebank_internal.auth_token_is_live(token_expires_at timestamptz, session_id uuid,
                                                     session_revoked_at timestamptz,
                                                     session_expires_at timestamptz, user_status text,
                                                     client_status text) RETURNS bool
    LANGUAGE sql STABLE
    AS $fn$
    SELECT token_expires_at > now()
       AND CASE WHEN session_id IS NOT NULL
                THEN session_revoked_at IS NULL AND session_expires_at > now() AND user_status = 'ACTIVE'
                ELSE client_status = 'ACTIVE'
           END
$fn$;
REVOKE ALL ON FUNCTION corebank_internal.auth_token_is_live(timestamptz, uuid, timestamptz, timestamptz, text, text)
    FROM PUBLIC;

-- The bearer check on every call: live session and ACTIVE user (or ACTIVE
-- client for client tokens), unexpired token. One primary-key lookup and
-- two primary-key joins.
CREATE OR REPLACE FUNCTION corebank.auth_authenticate(jti uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN coalesce((
        SELECT jsonb_build_object('active', true, 'userId', t.user_id, 'sessionId', t.session_id,
                                  'clientId', coalesce(t.client_id, s.client_id))
        FROM corebank.auth_access_tokens t
        LEFT JOIN corebank.auth_sessions s ON s.id = t.session_id
        LEFT JOIN corebank.auth_users u ON u.id = t.user_id
        LEFT JOIN corebank.auth_oauth_clients c ON c.client_id = t.client_id
        WHERE t.jti = auth_authenticate.jti
          AND corebank_internal.auth_token_is_live(t.expires_at, t.session_id, s.revoked_at, s.expires_at,
                                                   u.status, c.status)
    ), '{"active": false}'::jsonb);
END
$fn$;

-- RFC 7662 facts the database holds for a token whose signature the tier
-- verified. iss and scope are in the verified token; the tier adds them.
CREATE OR REPLACE FUNCTION corebank.auth_introspect(jti uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN coalesce((
        SELECT jsonb_strip_nulls(jsonb_build_object(
                   'active', true,
                   'sub', coalesce(t.user_id::text, t.client_id),
                   'iat', extract(epoch FROM t.issued_at)::bigint,
                   'exp', extract(epoch FROM t.expires_at)::bigint,
                   'jti', t.jti,
                   'token_type', CASE WHEN t.session_id IS NULL THEN 'client' ELSE 'access' END,
                   'client_id', coalesce(t.client_id, s.client_id),
                   'aud', s.audience,
                   'username', coalesce(u.email, u.phone)))
        FROM corebank.auth_access_tokens t
        LEFT JOIN corebank.auth_sessions s ON s.id = t.session_id
        LEFT JOIN corebank.auth_users u ON u.id = t.user_id
        LEFT JOIN corebank.auth_oauth_clients c ON c.client_id = t.client_id
        WHERE t.jti = auth_introspect.jti
          AND corebank_internal.auth_token_is_live(t.expires_at, t.session_id, s.revoked_at, s.expires_at,
                                                   u.status, c.status)
    ), '{"active": false}'::jsonb);
END
$fn$;

-- == section: institution data migrations and reference tables (issue 11, part 5) ==
--
-- The institution's data, as opposed to the extension's code: the files of
-- migrations/ at the top of the repository, applied in version order by
-- `./corebank migrate` (docs/migrations.md). The runner applies each file in
-- one transaction with corebank_internal.data_migration_record, which
-- decides here, not in the runner, that a file applies once and that an
-- applied file never changes. corebank.banks is the first reference table
-- that only a migration fills; the extension creates it empty.

CREATE TABLE corebank.data_migrations (
    version    int PRIMARY KEY,
    name       text NOT NULL UNIQUE,
    sha256     text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    applied_by text NOT NULL DEFAULT session_user,
    CONSTRAINT data_migrations_version CHECK (version BETWEEN 1 AND 9999),
    CONSTRAINT data_migrations_name
        CHECK (name ~ '^[0-9]{4}_[a-z0-9_]{1,60}\.sql$' AND left(name, 4) = lpad(version::text, 4, '0')),
    CONSTRAINT data_migrations_sha256 CHECK (sha256 ~ '^[0-9a-f]{64}$')
);
COMMENT ON TABLE corebank.data_migrations IS
    'Institution data migrations applied (migrations/NNNN_name.sql), with the SHA-256 of each file; append-only';
CREATE TRIGGER data_migrations_append_only
    BEFORE UPDATE OR DELETE ON corebank.data_migrations
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE TRIGGER data_migrations_no_truncate
    BEFORE TRUNCATE ON corebank.data_migrations
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

-- The commercial banks of the home market with their SWIFT/BIC, served by
-- GET /v1/platform/banks. Filled by migrations/0003_banks.sql.
CREATE TABLE corebank.banks (
    code      text PRIMARY KEY,
    name      text NOT NULL,
    swift_bic text NOT NULL UNIQUE,
    CONSTRAINT banks_code CHECK (code ~ '^[A-Z][A-Z0-9_-]{0,19}$'),
    CONSTRAINT banks_name CHECK (length(name) BETWEEN 1 AND 200 AND name = btrim(name)),
    CONSTRAINT banks_swift_bic CHECK (swift_bic ~ '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$')
);
COMMENT ON TABLE corebank.banks IS 'Banks of the home market (GET /v1/platform/banks); institution data, see migrations/';

-- pg_dump keeps the rows of both: they are the institution's, not the
-- extension's.
SELECT pg_catalog.pg_extension_config_dump('corebank.data_migrations', '');
SELECT pg_catalog.pg_extension_config_dump('corebank.banks', '');

-- corebank_internal.data_migration_record(version int, name text, sha256 text) returns bool
--
-- Records, in the caller's transaction, that migration file NAME (whose
-- SHA-256 is SHA256) is applied now: true when the caller must apply it,
-- false when it was applied before with the same checksum. Refuses (CB409) a
-- file that changed after it was applied, a renamed one, and a new version
-- below the latest applied one (migrations apply in order, never in between).
-- The table lock serialises recorders, so two runners cannot both find a
-- version new; the row commits or rolls back with the migration's data.
-- Internal, not API: only a superuser (the runner) executes it; applied_by
-- is the session's login.
CREATE FUNCTION corebank_internal.data_migration_record(version int, name text, sha256 text) RETURNS bool
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    applied corebank.data_migrations;
    latest corebank.data_migrations;
BEGIN
    IF version IS NULL OR version NOT BETWEEN 1 AND 9999 THEN
        PERFORM corebank_internal.fail('CBV00', 'migration version must be between 1 and 9999');
    END IF;
    IF name IS NULL OR name !~ '^[0-9]{4}_[a-z0-9_]{1,60}\.sql$' OR left(name, 4) <> lpad(version::text, 4, '0') THEN
        PERFORM corebank_internal.fail('CBV00',
            format('migration file name %L must be NNNN_name.sql (lower case), NNNN being its version %s', name, version));
    END IF;
    IF sha256 IS NULL OR sha256 !~ '^[0-9a-f]{64}$' THEN
        PERFORM corebank_internal.fail('CBV00', format('migration %s: the checksum must be 64 lower-case hex digits', name));
    END IF;
    LOCK TABLE corebank.data_migrations IN SHARE ROW EXCLUSIVE MODE;
    SELECT * INTO applied FROM corebank.data_migrations m WHERE m.version = version;
    IF FOUND THEN
        IF applied.name <> name THEN
            PERFORM corebank_internal.fail('CB409',
                format('migration %s was applied as %s on %s: an applied migration is never renamed',
                       name, applied.name, applied.applied_at));
        END IF;
        IF applied.sha256 <> sha256 THEN
            PERFORM corebank_internal.fail('CB409',
                format('migration %s has changed since it was applied on %s (checksum then %s, now %s): '
                       'an applied migration is never edited; put the change in a new migration',
                       name, applied.applied_at, applied.sha256, sha256));
        END IF;
        RETURN false;
    END IF;
    SELECT * INTO latest FROM corebank.data_migrations m ORDER BY m.version DESC LIMIT 1;
    IF FOUND AND latest.version > version THEN
        PERFORM corebank_internal.fail('CB409',
            format('migration %s is older than %s, which is applied already: a new migration takes a version above %s',
                   name, latest.name, latest.version));
    END IF;
    INSERT INTO corebank.data_migrations (version, name, sha256) VALUES (version, name, sha256);
    RETURN true;
END
$fn$;

-- corebank.core_platform_banks() returns jsonb
--
-- The body of GET /v1/platform/banks: [{"code", "name", "swiftBic"}, ...]
-- ordered by name, case-insensitively; [] before migrations/0003_banks.sql.
CREATE FUNCTION corebank.core_platform_banks() RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT coalesce(jsonb_agg(jsonb_build_object('code', b.code, 'name', b.name, 'swiftBic', b.swift_bic)
                              ORDER BY lower(b.name) COLLATE "C", b.code), '[]'::jsonb)
    FROM corebank.banks b
$fn$;

-- Only the superuser who runs migrations records them; the tier reads the
-- banks through the function, and the read-only roles may read the table.
REVOKE ALL ON TABLE corebank.data_migrations, corebank.banks FROM PUBLIC;
REVOKE ALL ON FUNCTION corebank_internal.data_migration_record(int, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION corebank.core_platform_banks() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION corebank.core_platform_banks() TO corebank_app;
GRANT SELECT ON TABLE corebank.banks, corebank.data_migrations TO corebank_auditor, corebank_reporting;

-- The role policy is institution data now: policies/roles.json is gone.
COMMENT ON TABLE corebank.auth_role_scopes IS
    'Role to scopes, loaded by policy_load from the data migrations (migrations/0004_role_policy.sql)';

-- == section: surfaces that tell the truth (issue 11, part 6) ==

-- == section: one definition of each SQL pattern (issue 11) ==

-- corebank_internal.required_id(id uuid) returns uuid
--
-- The id of a read by id, refused with CBV00 when absent: every get
-- checks it before it renders anything.
CREATE FUNCTION corebank_internal.required_id(id uuid) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    RETURN id;
END
$fn$;

-- corebank_internal.found_or_404(rendered jsonb, not_found text) returns jsonb
--
-- A rendered object, or CB404 with `not_found` when there was none: the
-- answer of every get by id or by number.
CREATE FUNCTION corebank_internal.found_or_404(rendered jsonb, not_found text) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', not_found);
    END IF;
    RETURN rendered;
END
$fn$;

REVOKE ALL ON FUNCTION corebank_internal.required_id(uuid), corebank_internal.found_or_404(jsonb, text) FROM PUBLIC;

-- The gets by id: the id is required, then the object's JSON or CB404.

CREATE OR REPLACE FUNCTION corebank.core_accounts_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.account_json(corebank_internal.required_id(id)),
                                          'Account not found')
$fn$;

CREATE OR REPLACE FUNCTION corebank.core_approval_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.parked_change_json(corebank_internal.required_id(id)),
                                          'Approval not found')
$fn$;

CREATE OR REPLACE FUNCTION corebank.core_branch_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.branch_json(corebank_internal.required_id(id)),
                                          'Branch not found')
$fn$;

CREATE OR REPLACE FUNCTION corebank.core_gl_account_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.gl_account_json(corebank_internal.required_id(id)),
                                          'GL account not found')
$fn$;

CREATE OR REPLACE FUNCTION corebank.core_transaction_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.transaction_json(corebank_internal.required_id(id)),
                                          'Transaction not found')
$fn$;

-- The other gets, by id or by number: the object's JSON or CB404.

CREATE OR REPLACE FUNCTION corebank.core_accounts_get_by_number(account_number text) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.account_json(
               (SELECT a.id FROM corebank.ledger_accounts a
                WHERE a.account_number = upper(btrim(core_accounts_get_by_number.account_number)))),
           'Account not found')
$fn$;

CREATE OR REPLACE FUNCTION corebank.core_deposit_products_get_by_code(code text) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.deposit_product_json(
               (SELECT p.id FROM corebank.deposit_products p
                WHERE p.code = upper(btrim(core_deposit_products_get_by_code.code)))),
           'Deposit product not found')
$fn$;

CREATE OR REPLACE FUNCTION corebank.core_deposit_products_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.deposit_product_json(id), 'Deposit product not found')
$fn$;

CREATE OR REPLACE FUNCTION corebank.core_passbook_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.passbook_json(id), 'Passbook not found')
$fn$;

CREATE OR REPLACE FUNCTION corebank.core_standing_orders_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.standing_order_json(id), 'Standing order not found')
$fn$;

-- corebank_internal.parked_change_period(kind text, verb text, period text, actor uuid) returns jsonb
--
-- Parks a change of an accounting period ('period.close', 'period.reopen')
-- for a checker: the period is YYYY-MM, the summary "<verb> accounting
-- period <period>".
CREATE FUNCTION corebank_internal.parked_change_period(kind text, verb text, period text, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF period IS NULL OR period !~ '^[0-9]{4}-(0[1-9]|1[0-2])$' THEN
        PERFORM corebank_internal.fail('CBV00', 'period: must be YYYY-MM');
    END IF;
    RETURN corebank.parked_change_create(kind, 'period', period, '{}'::jsonb,
                                         format('%s accounting period %s', verb, period), actor);
END
$fn$;

REVOKE ALL ON FUNCTION corebank_internal.parked_change_period(text, text, text, uuid) FROM PUBLIC;

CREATE OR REPLACE FUNCTION corebank.core_period_close_request(period text, actor uuid) RETURNS jsonb
    LANGUAGE sql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$ SELECT corebank_internal.parked_change_period('period.close', 'Close', period, actor) $fn$;

CREATE OR REPLACE FUNCTION corebank.core_period_reopen_request(period text, actor uuid) RETURNS jsonb
    LANGUAGE sql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$ SELECT corebank_internal.parked_change_period('period.reopen', 'Reopen', period, actor) $fn$;

-- corebank_internal.deposit_run_date(run_date date) returns date
--
-- The date of a batch run (interest, dormancy, standing orders): required,
-- and not after the business date.
CREATE FUNCTION corebank_internal.deposit_run_date(run_date date) RETURNS date
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    today date := corebank_internal.business_today();
BEGIN
    IF run_date IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'date: is required');
    END IF;
    IF run_date > today THEN
        PERFORM corebank_internal.fail('CB422', format('date: must not be after the business date %s', today));
    END IF;
    RETURN run_date;
END
$fn$;

REVOKE ALL ON FUNCTION corebank_internal.deposit_run_date(date) FROM PUBLIC;

-- ACTIVE accounts whose product has dormancy_days and whose last
-- customer-initiated posting (or opening) is that many days before run_date.
CREATE OR REPLACE FUNCTION corebank.core_dormancy_run(run_date date, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    operator uuid := coalesce(actor, corebank_internal.system_actor());
    r record;
    marked jsonb := '[]'::jsonb;
BEGIN
    PERFORM corebank_internal.deposit_run_date(run_date);
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

-- InterestRunResponse. Days from each account's processed_through + 1 up to
-- run_date (at most 366); one run at a time.
CREATE OR REPLACE FUNCTION corebank.core_interest_run(run_date date, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    operator uuid := coalesce(actor, corebank_internal.system_actor());
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
    PERFORM corebank_internal.deposit_run_date(run_date);
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

-- Runs every ACTIVE order due on or before run_date, once per order and
-- date (the execution row's unique key), each payment in its own
-- subtransaction so that one failure does not stop the others.
CREATE OR REPLACE FUNCTION corebank.core_standing_orders_execute(run_date date, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    operator uuid := coalesce(actor, corebank_internal.system_actor());
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
    PERFORM corebank_internal.deposit_run_date(run_date);
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

-- corebank_internal.auth_sessions_revoke_live(user_id uuid, reason text) returns int
--
-- Revokes every live session of a user with `reason` (deactivation,
-- password change, log out everywhere) and says how many there were.
CREATE FUNCTION corebank_internal.auth_sessions_revoke_live(user_id uuid, reason text) RETURNS int
    LANGUAGE plpgsql
    AS $fn$
#variable_conflict use_variable
DECLARE
    revoked int;
BEGIN
    UPDATE corebank.auth_sessions s
    SET revoked_at = now(), revoked_reason = reason
    WHERE s.user_id = user_id AND s.revoked_at IS NULL AND s.expires_at > now();
    GET DIAGNOSTICS revoked = ROW_COUNT;
    RETURN revoked;
END
$fn$;

REVOKE ALL ON FUNCTION corebank_internal.auth_sessions_revoke_live(uuid, text) FROM PUBLIC;

CREATE OR REPLACE FUNCTION corebank.auth_deactivate(user_id uuid) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF user_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'user_id: is required');
    END IF;
    UPDATE corebank.auth_users u
    SET status = 'DEACTIVATED', updated_at = now()
    WHERE u.id = user_id AND u.status = 'ACTIVE';
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CBU01', 'Account is not active');
    END IF;
    PERFORM corebank_internal.auth_sessions_revoke_live(user_id, 'deactivated');
    PERFORM corebank_internal.audit(user_id, 'deactivated');
END
$fn$;

-- Locks the user row first (like login and refresh), so no session is being
-- created or refreshed while the others are revoked.
CREATE OR REPLACE FUNCTION corebank.auth_password_change(user_id uuid, new_password_hash text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF user_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'user_id: is required');
    END IF;
    IF new_password_hash IS NULL OR new_password_hash NOT LIKE '$argon2id$%' OR length(new_password_hash) > 512 THEN
        PERFORM corebank_internal.fail('CBV00', 'new_password_hash: must be an argon2id encoded hash');
    END IF;
    UPDATE corebank.auth_users u
    SET password_hash = new_password_hash, updated_at = now()
    WHERE u.id = user_id AND u.status = 'ACTIVE';
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CBU01', 'Account is not active');
    END IF;
    PERFORM corebank_internal.auth_sessions_revoke_live(user_id, 'password_change');
    PERFORM corebank_internal.audit(user_id, 'password_changed');
END
$fn$;

CREATE OR REPLACE FUNCTION corebank.auth_logout_all(user_id uuid) RETURNS int
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    revoked int;
BEGIN
    IF user_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'user_id: is required');
    END IF;
    PERFORM FROM corebank.auth_users u WHERE u.id = user_id FOR UPDATE;
    revoked := corebank_internal.auth_sessions_revoke_live(user_id, 'logout_all');
    PERFORM corebank_internal.audit(user_id, 'logout_all', jsonb_build_object('revoked', revoked));
    RETURN revoked;
END
$fn$;

-- corebank_internal.json_member(value jsonb, json_type text, path text, expected text) returns jsonb
--
-- A request member of one JSON type: NULL when absent or null, the value
-- when jsonb_typeof is `json_type`, else CBV00 "<path>: must be <expected>".
CREATE FUNCTION corebank_internal.json_member(value jsonb, json_type text, path text, expected text) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(value) <> json_type THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be %s', path, expected));
    END IF;
    RETURN value;
END
$fn$;

-- corebank_internal.json_string(value jsonb, path text, length_max int, trimmed bool) returns text
--
-- A string member: at most `length_max` characters (after btrim when
-- `trimmed`), NULL when absent, null or empty.
CREATE FUNCTION corebank_internal.json_string(value jsonb, path text, length_max int, trimmed bool) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    string text := corebank_internal.json_member(value, 'string', path, 'a string') #>> '{}';
BEGIN
    IF trimmed THEN
        string := btrim(string);
    END IF;
    IF length(string) > length_max THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be at most %s characters', path, length_max));
    END IF;
    RETURN nullif(string, '');
END
$fn$;

REVOKE ALL ON FUNCTION corebank_internal.json_member(jsonb, text, text, text),
    corebank_internal.json_string(jsonb, text, int, bool) FROM PUBLIC;

CREATE OR REPLACE FUNCTION corebank_internal.json_bool(request jsonb, key text) RETURNS bool
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT (corebank_internal.json_member(request -> key, 'boolean', key, 'true or false') #>> '{}')::bool $fn$;

-- Members of a request object, refusing wrong types with CBV00.
CREATE OR REPLACE FUNCTION corebank_internal.json_text(request jsonb, key text, length_max int) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT corebank_internal.json_string(request -> key, key, length_max, false) $fn$;

-- A profile leaf of a PATCH: trimmed text, or NULL for null/blank; the
-- message names the full path ("address.city: ...").
CREATE OR REPLACE FUNCTION corebank_internal.patch_text(obj jsonb, key text, path text, length_max int) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT corebank_internal.json_string(obj -> key, path, length_max, true) $fn$;

-- corebank_internal.deposit_account_reason(request jsonb) returns text
--
-- The reason of an account lifecycle request (activate, reactivate,
-- unfreeze): the body must be an object (none is {}); the trimmed
-- `reason` member, NULL when absent or blank.
CREATE FUNCTION corebank_internal.deposit_account_reason(request jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT corebank_internal.json_trimmed(corebank_internal.require_object(coalesce(request, '{}'::jsonb)), 'reason', 500)
$fn$;

REVOKE ALL ON FUNCTION corebank_internal.deposit_account_reason(jsonb) FROM PUBLIC;

-- The lifecycle requests back to ACTIVE: an optional reason, a default one.

CREATE OR REPLACE FUNCTION corebank.core_accounts_activate(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE sql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.account_lifecycle(id, ARRAY['PENDING_ACTIVATION'], 'ACTIVE',
        coalesce(corebank_internal.deposit_account_reason(request), 'activated'), actor, 'activate')
$fn$;

CREATE OR REPLACE FUNCTION corebank.core_accounts_reactivate(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE sql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.account_lifecycle(id, ARRAY['DORMANT'], 'ACTIVE',
        coalesce(corebank_internal.deposit_account_reason(request), 'reactivated'), actor, 'reactivate')
$fn$;

CREATE OR REPLACE FUNCTION corebank.core_accounts_unfreeze(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE sql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.account_lifecycle(id, ARRAY['FROZEN'], 'ACTIVE',
        coalesce(corebank_internal.deposit_account_reason(request), 'unfrozen'), actor, 'unfreeze')
$fn$;
