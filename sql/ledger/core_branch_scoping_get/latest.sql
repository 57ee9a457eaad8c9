-- BranchScopingResponse: {enabled, updatedAt}.
CREATE FUNCTION corebank.core_branch_scoping_get() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object('enabled', c.branch_scoping, 'updatedAt', corebank_internal.iso_utc(c.updated_at))
            FROM corebank.platform_config c);
END
$fn$;
