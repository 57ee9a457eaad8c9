-- limits_money.sql: the money domain and the limits SQL reads from C++
-- (extension/core/limits.hpp through corebank_internal.limit_*()).
--
-- Goal: one amount of money is corebank.amount_minor, 0 to 10^15, in every
-- column and every internal function argument that holds one; the limits SQL uses are those of the specification
-- (10^15, pages of 1 to 200 rows and 25 by default, API keys at 6,000
-- requests a minute by default and 1,000,000 at most); and no live function
-- body or CHECK writes one of them out again. Method: the domain and the
-- catalog (pg_constraint, pg_proc, information_schema.columns).
BEGIN;
SELECT plan(20);

SELECT has_domain('corebank', 'amount_minor', 'the money domain exists');
SELECT is((SELECT format_type(typbasetype, NULL) FROM pg_type
           WHERE typname = 'amount_minor' AND typnamespace = 'corebank'::regnamespace),
          'bigint', 'it is a bigint');
SELECT is(corebank_internal.limit_amount_minor_max(), 1000000000000000::bigint, 'the cap is 10^15 minor units');
SELECT lives_ok($$SELECT 1000000000000000::corebank.amount_minor, 0::corebank.amount_minor$$,
                'the domain takes 0 and the cap');
SELECT throws_ok($$SELECT 1000000000000001::corebank.amount_minor$$, '23514', NULL, 'one above the cap is refused');
SELECT throws_ok($$SELECT (-1)::corebank.amount_minor$$, '23514', NULL, 'a negative amount is refused');

SELECT is(corebank_internal.limit_page_size_max(), 200, 'a page has at most 200 rows');
SELECT is(corebank_internal.limit_page_size_default(), 25, 'and 25 by default');
SELECT is(corebank_internal.limit_api_key_requests_per_minute_default(), 6000, 'an API key makes 6,000 requests a minute by default');
SELECT is(corebank_internal.limit_api_key_requests_per_minute_max(), 1000000, 'and at most 1,000,000');

-- Every column of one amount; balances and sums stay bigint.
SELECT results_eq(
    $$SELECT table_name::text COLLATE "default", column_name::text COLLATE "default" FROM information_schema.columns
      WHERE table_schema = 'corebank' AND domain_schema = 'corebank' AND domain_name = 'amount_minor'
      ORDER BY 1, 2$$,
    $$VALUES ('customer_profiles', 'declared_income_minor'), ('deposit_product_tiers', 'from_minor'),
             ('deposit_products', 'allow_overdraft_minor'), ('deposit_products', 'minimum_balance_minor'),
             ('deposit_products', 'minimum_opening_minor'), ('deposit_products', 'monthly_fee_minor'),
             ('deposit_products', 'withdrawal_fee_minor'), ('gl_budgets', 'amount_minor'),
             ('interest_accrual_journals', 'amount_minor'), ('journal_entries', 'amount_minor'),
             ('ledger_accounts', 'allow_overdraft_minor'), ('standing_orders', 'amount_minor'),
             ('transaction_lines_proposed', 'amount_minor')$$,
    'every column of one amount is corebank.amount_minor');
SELECT is((SELECT format_type(atttypid, NULL) FROM pg_attribute
           WHERE attrelid = 'corebank.ledger_accounts'::regclass AND attname = 'balance_minor'),
          'bigint', 'a balance is not bounded by one amount');

-- Every internal function argument of one amount; money_text and amount_text
-- also format balances and sums, so they stay bigint.
SELECT results_eq(
    $$SELECT p.oid::regprocedure::text COLLATE "default" FROM pg_proc p
      WHERE p.pronamespace = 'corebank_internal'::regnamespace
        AND p.proname IN ('fx_convert', 'money_apply_bp', 'money_text', 'amount_text')
      ORDER BY 1$$,
    $$VALUES ('corebank_internal.amount_text(bigint,smallint)'),
             ('corebank_internal.fx_convert(corebank.amount_minor,text)'),
             ('corebank_internal.money_apply_bp(corebank.amount_minor,integer)'),
             ('corebank_internal.money_text(bigint,text)')$$,
    'fx_convert and money_apply_bp take one amount as corebank.amount_minor, and only so (1.8: the penalty is core/posting_rules.hpp)');
SELECT is(corebank_internal.money_apply_bp(10000::bigint, 250), 250::bigint,
          'a bigint amount in range is still accepted (coerced to the domain)');
SELECT throws_ok($$SELECT corebank_internal.money_apply_bp(1000000000000001, 100)$$, '23514', NULL,
                 'money_apply_bp refuses an amount above the cap');
SELECT throws_ok($$SELECT corebank_internal.fx_convert(-1, '2')$$, '23514', NULL,
                 'fx_convert refuses a negative amount');
-- An error text that names the cap spells the number from limits.hpp.
SELECT throws_ok($$SELECT corebank_internal.interest_effective_rate_bp(1000000000000001, 100, NULL)$$,
                 'CBV00', 'balance_minor: is outside +-1000000000000000', 'a balance beyond the cap names it in full');
SELECT throws_ok($$SELECT corebank_internal.money_apply_bp(100, 100001)$$,
                 'CBV00', 'bp: must be 0 to 100000', 'a rate beyond its cap names it in full');

-- No copy of a limit in the catalog.
SELECT is_empty(
    $$SELECT c.conrelid::regclass::text || '.' || c.conname FROM pg_constraint c
      JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE n.nspname IN ('corebank', 'corebank_internal')
        AND pg_get_constraintdef(c.oid) ~ '1000000000000000|BETWEEN 1 AND 1000000\M'$$,
    'no CHECK writes out the amount cap or the API-key rate');
SELECT is_empty(
    $$SELECT p.oid::regprocedure::text FROM pg_proc p
      WHERE p.pronamespace IN ('corebank'::regnamespace, 'corebank_internal'::regnamespace)
        AND p.prosrc ~ ('1000000000000000|''size'', 1, 200\M|size\) NOT BETWEEN 1 AND 200\M|page_size NOT BETWEEN 1 AND 200\M'
                        '|size: must be from 1 to 200|rate_limit_per_minute, 6000\)|rate_limit_per_minute NOT BETWEEN 1 AND 1000000')$$,
    'no function body writes out the amount cap, the page size or the API-key rate');

SELECT * FROM finish();
ROLLBACK;
