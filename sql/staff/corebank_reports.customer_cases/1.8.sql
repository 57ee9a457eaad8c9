-- 1.8: customer cases for reports (docs/reporting.md): category, status
-- and who and when; the subject, description and resolution (free text)
-- left out. Scoped by the customer's branch.
CREATE VIEW corebank_reports.customer_cases WITH (security_barrier) AS
SELECT k.id, k.customer_id, c.branch_id, k.category, k.status, k.opened_by, k.opened_at, k.resolved_by, k.resolved_at
FROM corebank.customer_cases k
JOIN corebank.customers c ON c.id = k.customer_id
WHERE corebank.branch_visible(c.branch_id);
