-- 1.8: a company's beneficial owners for reports (docs/reporting.md): the
-- name as initials, the date of birth as its year, the national id masked;
-- the stake and control kept. Scoped by the company's branch.
CREATE VIEW corebank_reports.beneficial_owners WITH (security_barrier) AS
SELECT o.id, o.customer_id, c.branch_id, o.owner_customer_id, corebank_reports.initials(o.full_name) AS initials,
       extract(year FROM o.date_of_birth)::int AS birth_year, o.nationality,
       corebank_reports.masked(o.national_id) AS national_id_masked, o.ownership_bp, o.has_control, o.active,
       o.created_at, o.created_by, o.removed_at, o.removed_by
FROM corebank.beneficial_owners o
JOIN corebank.customers c ON c.id = o.customer_id
WHERE corebank.branch_visible(c.branch_id);
