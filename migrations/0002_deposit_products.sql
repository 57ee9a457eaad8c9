-- migrations/0002_deposit_products.sql: the institution's deposit products
-- and their interest tiers.
--
-- Extension 1.4 already seeds these rows at CREATE EXTENSION, and released
-- scripts are never edited, so this first migration states the same rows and
-- inserts only what is missing: a product whose code exists stays as it is
-- (the institution may have changed its rates through the API), and tiers
-- are inserted only for a product that has none. On a database that has the
-- seed it changes nothing. From now on products change by a new migration
-- file, never by editing this one (docs/migrations.md).
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
    ('GL-USD', 'Internal GL Account', 'GL', 'USD', 'NONE', 0, 0, 0, 0, 0, NULL, 0, NULL, false, true, '1900', 1000000000000000)
ON CONFLICT (code) DO NOTHING;

INSERT INTO corebank.deposit_product_tiers (product_id, from_minor, rate_bp)
SELECT p.id, t.from_minor, t.rate_bp
FROM corebank.deposit_products p
JOIN (VALUES ('SAV-TIER', 0::bigint, 100), ('SAV-TIER', 100000, 200), ('SAV-TIER', 1000000, 300),
             ('MM-USD', 0, 500), ('MM-USD', 5000000, 600)) AS t(code, from_minor, rate_bp) ON t.code = p.code
WHERE NOT EXISTS (SELECT FROM corebank.deposit_product_tiers x WHERE x.product_id = p.id);
