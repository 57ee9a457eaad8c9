-- GET /v1/staff/permissions: every permission a role may hold, sorted by
-- key: {key, access (read | write), parkedOperation, verb (make | check)};
-- the last two are null except on a maker-checker operation's two
-- permissions.
CREATE FUNCTION corebank.core_staff_permissions_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('key', p.key, 'access', p.access,
                                                         'parkedOperation', p.parked_operation, 'verb', p.verb)
                                      ORDER BY p.key COLLATE "C"), '[]')
            FROM corebank.staff_permissions p);
END
$fn$;
