-- GET /v1/staff/identities: every staff identity (a user holding a role of
-- staff_roles), by username. At most 10000: a bank's staff, not its
-- customers (docs/core-banking.md, "Staff identities").
CREATE FUNCTION corebank.core_staff_identities_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN coalesce((SELECT jsonb_agg(corebank_internal.staff_identity_json(s.id) ORDER BY s.username)
                     FROM (SELECT u.id, u.username FROM corebank.auth_users u
                           WHERE u.roles && ARRAY(SELECT r.key FROM corebank.staff_roles r)
                           ORDER BY u.username LIMIT 10000) s), '[]'::jsonb);
END
$fn$;
