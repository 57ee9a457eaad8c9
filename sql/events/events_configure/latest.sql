-- Makes the registry match the configuration: the six names are active
-- unless listed inactive; any other stored name becomes inactive (never
-- deleted). Idempotent; every tier process calls it on its first request.
CREATE FUNCTION corebank.events_configure(platforms text[], inactive text[], home_country_calling_code text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    platform_count CONSTANT int := 6;
BEGIN
    IF platforms IS NULL OR array_ndims(platforms) <> 1 OR cardinality(platforms) <> platform_count
       OR (SELECT count(DISTINCT p.name) FROM unnest(platforms) AS p(name)) <> platform_count
       OR EXISTS (SELECT FROM unnest(platforms) AS p(name) WHERE p.name IS NULL OR p.name !~ '^[a-z0-9][a-z0-9_.-]{0,59}$') THEN
        PERFORM corebank_internal.fail('CBV00', 'platforms: must be 6 distinct names of 1 to 60 of a-z 0-9 _ . - (starting with a letter or digit)');
    END IF;
    IF inactive IS NULL OR array_ndims(inactive) > 1
       OR EXISTS (SELECT FROM unnest(inactive) AS p(name) WHERE p.name IS NULL OR NOT p.name = ANY (platforms)) THEN
        PERFORM corebank_internal.fail('CBV00', 'inactive: must name only configured platforms');
    END IF;
    IF home_country_calling_code IS NULL OR home_country_calling_code !~ '^[1-9][0-9]{0,2}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'home_country_calling_code: must be 1 to 3 digits, not starting with 0');
    END IF;
    IF (SELECT count(*) FROM (SELECT p.name FROM corebank.event_platforms p
                              UNION SELECT x.name FROM unnest(platforms) AS x(name)) AS known) > 1000 THEN
        PERFORM corebank_internal.fail('CBV00', 'platforms: the registry holds at most 1000 names, retired ones included');
    END IF;
    INSERT INTO corebank.event_platforms AS p (name, active)
    SELECT x.name, NOT (x.name = ANY (inactive)) FROM unnest(platforms) AS x(name)
    ON CONFLICT (name) DO UPDATE SET active = excluded.active, updated_at = now()
    WHERE p.active IS DISTINCT FROM excluded.active;
    UPDATE corebank.event_platforms p SET active = false, updated_at = now()
    WHERE p.active AND NOT (p.name = ANY (platforms));
    UPDATE corebank.event_settings s SET home_country_calling_code = events_configure.home_country_calling_code,
                                         updated_at = now()
    WHERE s.home_country_calling_code IS DISTINCT FROM events_configure.home_country_calling_code;
    RETURN corebank.events_platforms_list();
END
$fn$;
