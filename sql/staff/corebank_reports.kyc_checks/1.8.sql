-- 1.8: KYC checks for reports (docs/reporting.md): type, outcome and when;
-- the provider's details (which may quote the person) left out. Scoped by
-- the customer's branch.
CREATE VIEW corebank_reports.kyc_checks WITH (security_barrier) AS
SELECT k.id, k.customer_id, c.branch_id, k.check_type, k.provider_mode, k.source, k.outcome, k.requested_by,
       k.requested_at, k.verify_session_id
FROM corebank.kyc_checks k
JOIN corebank.customers c ON c.id = k.customer_id
WHERE corebank.branch_visible(c.branch_id);
