-- The branch of a request: branchId or branchCode, else the actor's branch
-- (identity keeps staff branch codes), else `fallback`.
CREATE FUNCTION corebank_internal.request_branch(request jsonb, actor uuid, fallback uuid) RETURNS uuid
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    branch_text uuid := corebank_internal.json_uuid(request, 'branchId');
    branch_code text := upper(corebank_internal.json_text(request, 'branchCode', 10));
    found uuid;
BEGIN
    IF branch_text IS NOT NULL THEN
        SELECT b.id INTO found FROM corebank.branches b WHERE b.id = branch_text;
    ELSIF branch_code IS NOT NULL THEN
        SELECT b.id INTO found FROM corebank.branches b WHERE b.code = branch_code;
    ELSE
        SELECT b.id INTO found FROM corebank.branches b JOIN corebank.auth_users u ON u.branch_code = b.code
        WHERE u.id = actor AND b.active;
        found := coalesce(found, fallback, (SELECT b.id FROM corebank.branches b WHERE b.is_head_office));
    END IF;
    IF found IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Branch not found');
    END IF;
    RETURN found;
END
$fn$;
