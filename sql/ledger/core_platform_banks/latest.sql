-- The body of GET /v1/platform/banks: [{"code", "name", "swiftBic"}, ...]
-- ordered by name, case-insensitively; [] before migrations/0003_banks.sql.
CREATE FUNCTION corebank.core_platform_banks() RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT coalesce(jsonb_agg(jsonb_build_object('code', b.code, 'name', b.name, 'swiftBic', b.swift_bic)
                              ORDER BY lower(b.name) COLLATE "C", b.code), '[]'::jsonb)
    FROM corebank.banks b
$fn$;
