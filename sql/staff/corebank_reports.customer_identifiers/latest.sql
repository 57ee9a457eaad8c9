-- 1.8: the event graph's customer identifiers for reports (docs/reporting.md):
-- the kind and the value masked. The graph's customers belong to no branch:
-- only an unscoped reader sees them.
CREATE VIEW corebank_reports.customer_identifiers WITH (security_barrier) AS
SELECT i.customer_id, i.kind, corebank_reports.masked(i.value) AS value_masked, i.first_seen_at
FROM corebank.customer_identifiers i
WHERE corebank.branch_visible(NULL);
