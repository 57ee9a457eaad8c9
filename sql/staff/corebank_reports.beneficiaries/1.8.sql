-- 1.8: beneficiaries for reports (docs/reporting.md): the payee's name as
-- initials, an outside account number masked, the nickname left out; the
-- bank, currency and the account of this bank (its id) kept. Scoped by the
-- customer's branch.
CREATE VIEW corebank_reports.beneficiaries WITH (security_barrier) AS
SELECT b.id, b.customer_id, c.branch_id, corebank_reports.initials(b.name) AS initials,
       corebank_reports.masked(b.account_number) AS account_number_masked, b.bank_swift_code, b.account_id,
       b.currency, b.active, b.created_at, b.created_by, b.removed_at, b.removed_by
FROM corebank.beneficiaries b
JOIN corebank.customers c ON c.id = b.customer_id
WHERE corebank.branch_visible(c.branch_id);
