-- 1.8: KYC documents for reports (docs/reporting.md): the document number
-- masked, the decision note (free text) left out. Scoped by the customer's
-- branch.
CREATE VIEW corebank_reports.kyc_documents WITH (security_barrier) AS
SELECT d.id, d.customer_id, c.branch_id, d.document_type, corebank_reports.masked(d.document_number) AS document_number_masked,
       d.issuing_country, d.issued_on, d.expires_on, d.status, d.submitted_by, d.submitted_at, d.decided_by,
       d.decided_at, d.parked_change_id
FROM corebank.kyc_documents d
JOIN corebank.customers c ON c.id = d.customer_id
WHERE corebank.branch_visible(c.branch_id);
