-- A staff identity's roles: 1 to 32 keys of corebank.staff_roles (F's
-- roles, the ones permissions hang on), answered sorted and without
-- repeats; CBV00 naming the first unknown one.
CREATE FUNCTION corebank_internal.staff_identity_roles_check(roles text[]) RETURNS text[]
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    unknown_role text;
BEGIN
    IF roles IS NULL OR cardinality(roles) = 0 THEN
        PERFORM corebank_internal.fail('CBV00', 'roles: is required');
    END IF;
    IF cardinality(roles) > 32 OR array_ndims(roles) > 1 OR array_position(roles, NULL) IS NOT NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'roles: must be at most 32 role keys');
    END IF;
    SELECT x.role INTO unknown_role
    FROM unnest(roles) WITH ORDINALITY AS x(role, position)
    WHERE NOT EXISTS (SELECT FROM corebank.staff_roles r WHERE r.key = x.role)
    ORDER BY x.position
    LIMIT 1;
    IF FOUND THEN
        PERFORM corebank_internal.fail('CBV00', format('roles: unknown role %s (GET /v1/staff/roles)',
                                                       left(unknown_role, 40)));
    END IF;
    RETURN ARRAY(SELECT DISTINCT x.role FROM unnest(roles) AS x(role) ORDER BY 1);
END
$fn$;
