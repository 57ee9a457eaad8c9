-- 1.8: KYC reviews for reports (docs/reporting.md): the risk category and
-- dates; the notes (free text) left out. Scoped by the customer's branch.
CREATE VIEW corebank_reports.kyc_reviews WITH (security_barrier) AS
SELECT r.id, r.customer_id, c.branch_id, r.risk_category, r.next_review_date, r.reviewed_by, r.reviewed_at
FROM corebank.kyc_reviews r
JOIN corebank.customers c ON c.id = r.customer_id
WHERE corebank.branch_visible(c.branch_id);
