-- 1.8: staff identities for reports (docs/reporting.md), to name who opened
-- or decided what: id, initials of the display name, roles, status and
-- branch; no username, email, phone, password hash, second factor or lockout
-- state. Scoped by the member's branch (head office's members, no branch:
-- only an unscoped reader).
CREATE VIEW corebank_reports.staff_identities WITH (security_barrier) AS
SELECT u.id, corebank_reports.initials(u.display_name) AS initials, u.roles, u.status, u.branch_code,
       b.id AS branch_id, u.created_at, u.updated_at
FROM corebank.auth_users u
LEFT JOIN corebank.branches b ON b.code = u.branch_code
WHERE u.roles && ARRAY(SELECT r.key FROM corebank.staff_roles r)
  AND corebank.branch_visible(b.id);
