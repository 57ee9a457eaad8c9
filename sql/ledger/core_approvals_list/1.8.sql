-- 1.8: a scoped checker's list leaves other branches' changes out, and its
-- total counts only the visible ones (issue 15, branch scoping; a change's
-- branch is its maker's when parked).
CREATE OR REPLACE FUNCTION corebank.core_approvals_list(status text, page int, size int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    wanted text := upper(nullif(btrim(status), ''));
    bounds int[];
    total bigint;
    content jsonb;
BEGIN
    IF wanted NOT IN ('PENDING', 'APPROVED', 'REJECTED', 'LAPSED') THEN
        PERFORM corebank_internal.fail('CBV00', 'status: must be PENDING, APPROVED, REJECTED or LAPSED');
    END IF;
    bounds := corebank_internal.page_bounds(page, size);
    WITH hits AS MATERIALIZED (
        SELECT p.id, p.created_at
        FROM corebank.parked_changes p
        WHERE (wanted IS NULL OR corebank_internal.change_status(p.status, p.expires_at) = wanted)
          AND corebank.branch_visible(p.branch_id)
    ), chosen AS (
        SELECT h.id, h.created_at FROM hits h
        ORDER BY h.created_at DESC, h.id
        LIMIT bounds[2] OFFSET bounds[1]::bigint * bounds[2]
    )
    SELECT (SELECT count(*) FROM hits),
           (SELECT jsonb_agg(corebank_internal.parked_change_json(c.id) ORDER BY c.created_at DESC, c.id) FROM chosen c)
    INTO total, content;
    RETURN corebank_internal.page_json(content, bounds[1], bounds[2], total);
END
$fn$;
