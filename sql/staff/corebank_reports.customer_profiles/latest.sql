-- 1.8: customer profiles for reports (docs/reporting.md): email and phone
-- masked, the street address, postal code and employer left out; the city,
-- province, country, employment, occupation and declared income kept for
-- segmenting. Scoped by the customer's branch.
CREATE VIEW corebank_reports.customer_profiles WITH (security_barrier) AS
SELECT p.customer_id, c.branch_id, corebank_reports.masked(p.email) AS email_masked,
       corebank_reports.masked(p.phone) AS phone_masked, p.city, p.province, p.country, p.employment_status,
       p.occupation, p.declared_income_minor::bigint AS declared_income_minor, p.income_currency, p.income_frequency,
       p.updated_at, p.updated_by
FROM corebank.customer_profiles p
JOIN corebank.customers c ON c.id = p.customer_id
WHERE corebank.branch_visible(c.branch_id);
