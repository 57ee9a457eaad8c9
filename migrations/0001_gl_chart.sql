-- migrations/0001_gl_chart.sql: the institution's chart of GL accounts.
--
-- The USD accounts; inserting one creates its ZWG mirror (trigger
-- gl_accounts_mirror). Extension 1.1 already seeds these rows at CREATE
-- EXTENSION, and released scripts are never edited, so this first migration
-- states the same rows and inserts only those that are missing: on a database
-- that has them it changes nothing, and an account the institution has since
-- renamed or deactivated through the API stays as it is. From now on the
-- chart changes by a new migration file, never by editing this one
-- (docs/migrations.md).
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
    ('5300', 'Loan loss provisions', 'EXPENSE', 'USD')
ON CONFLICT (code, currency) DO NOTHING;
