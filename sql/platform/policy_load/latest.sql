-- Upserts auth_role_scopes from {"roles": {"<role>": {"scopes": [..],
-- "staff": bool, "description": ".."}, ...}} (policies/roles.json).
CREATE FUNCTION corebank.policy_load(policy jsonb) RETURNS int
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    roles_max CONSTANT int := 100;
    entry record;
    loaded int := 0;
BEGIN
    IF policy IS NULL OR jsonb_typeof(policy -> 'roles') IS DISTINCT FROM 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'policy: must have a "roles" object');
    END IF;
    IF (SELECT count(*) FROM jsonb_object_keys(policy -> 'roles')) > roles_max THEN
        PERFORM corebank_internal.fail('CBV00', format('policy: at most %s roles', roles_max));
    END IF;
    FOR entry IN SELECT e.key AS role, e.value AS definition FROM jsonb_each(policy -> 'roles') AS e LOOP
        IF entry.role !~ '^[a-z][a-z0-9_]{0,62}$' THEN
            PERFORM corebank_internal.fail('CBV00', format('policy: invalid role name %L', entry.role));
        END IF;
        IF jsonb_typeof(entry.definition -> 'scopes') IS DISTINCT FROM 'array'
           OR EXISTS (SELECT FROM jsonb_array_elements(entry.definition -> 'scopes') AS x(scope)
                      WHERE jsonb_typeof(x.scope) <> 'string' OR length(x.scope #>> '{}') NOT BETWEEN 1 AND 100) THEN
            PERFORM corebank_internal.fail('CBV00', format('policy: role %L: scopes must be an array of strings', entry.role));
        END IF;
        IF jsonb_typeof(entry.definition -> 'staff') IS DISTINCT FROM 'boolean' THEN
            PERFORM corebank_internal.fail('CBV00', format('policy: role %L: staff must be true or false', entry.role));
        END IF;
        IF jsonb_typeof(entry.definition -> 'description') NOT IN ('string', 'null') THEN
            PERFORM corebank_internal.fail('CBV00', format('policy: role %L: description must be a string', entry.role));
        END IF;
        INSERT INTO corebank.auth_role_scopes AS r (role, scopes, staff, description)
        VALUES (entry.role,
                ARRAY(SELECT DISTINCT x.scope FROM jsonb_array_elements_text(entry.definition -> 'scopes') AS x(scope) ORDER BY 1),
                (entry.definition ->> 'staff')::bool,
                entry.definition ->> 'description')
        ON CONFLICT (role) DO UPDATE
        SET scopes = excluded.scopes, staff = excluded.staff, description = excluded.description;
        loaded := loaded + 1;
    END LOOP;
    RETURN loaded;
END
$fn$;
