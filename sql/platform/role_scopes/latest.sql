-- Sorted, distinct union of the scopes of `roles`. Sorted bytewise (COLLATE
-- "C"), whatever the database's collation, like the C++ sort of client scopes.
CREATE FUNCTION corebank_internal.role_scopes(roles text[]) RETURNS text[]
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(array_agg(DISTINCT s.scope COLLATE "C" ORDER BY s.scope COLLATE "C"), '{}')
            FROM corebank.auth_role_scopes r
            CROSS JOIN LATERAL unnest(r.scopes) AS s(scope)
            WHERE r.role = ANY (role_scopes.roles));
END
$fn$;
