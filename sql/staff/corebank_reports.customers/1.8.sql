-- 1.8: customers for reports (docs/reporting.md): a person's name as
-- initials, the date of birth as its year, the national id masked; the
-- risk reason (free text) left out. A company's names and registration are
-- kept: they are public. Only customers of a branch the reader may see
-- (corebank.branch_visible: a psql login with a branch, while scoping is on).
CREATE VIEW corebank_reports.customers WITH (security_barrier) AS
SELECT c.id, c.customer_number, c.type, c.status, c.branch_id,
       corebank_reports.initials(concat_ws(' ', c.first_name, c.last_name)) AS initials,
       extract(year FROM c.date_of_birth)::int AS birth_year, c.gender,
       corebank_reports.masked(c.national_id) AS national_id_masked, c.nationality,
       c.legal_name, c.trading_name, c.registration_number, c.incorporation_date, c.country_of_incorporation,
       c.signing_mandate, c.risk_category, c.risk_set_at, c.risk_set_by, c.next_review_date, c.last_reviewed_at,
       c.last_reviewed_by, c.auth_user_id, c.created_at, c.created_by, c.updated_at, c.updated_by
FROM corebank.customers c
WHERE corebank.branch_visible(c.branch_id);
