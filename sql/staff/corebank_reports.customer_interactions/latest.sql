-- 1.8: customer interactions for reports (docs/reporting.md): channel,
-- type and when; the summary and notes (free text) left out. Scoped by the
-- customer's branch.
CREATE VIEW corebank_reports.customer_interactions WITH (security_barrier) AS
SELECT i.id, i.customer_id, c.branch_id, i.channel, i.interaction_type, i.occurred_at, i.recorded_by, i.recorded_at
FROM corebank.customer_interactions i
JOIN corebank.customers c ON c.id = i.customer_id
WHERE corebank.branch_visible(c.branch_id);
