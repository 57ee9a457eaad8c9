CREATE OR REPLACE FUNCTION corebank.core_approvals_list(status text, page int, size int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    wanted text := upper(nullif(btrim(status), ''));
    page_number int := coalesce(page, 0);
    page_size int := coalesce(size, corebank_internal.limit_page_size_default());
    total bigint;
    content jsonb;
BEGIN
    IF wanted NOT IN ('PENDING', 'APPROVED', 'REJECTED', 'LAPSED') THEN
        PERFORM corebank_internal.fail('CBV00', 'status: must be PENDING, APPROVED, REJECTED or LAPSED');
    END IF;
    IF page_number NOT BETWEEN 0 AND 1000000 THEN
        PERFORM corebank_internal.fail('CBV00', 'page: must be from 0 to 1000000');
    END IF;
    IF page_size NOT BETWEEN 1 AND corebank_internal.limit_page_size_max() THEN
        PERFORM corebank_internal.fail('CBV00', format('size: must be from 1 to %s', corebank_internal.limit_page_size_max()));
    END IF;
    WITH hits AS MATERIALIZED (
        SELECT p.id, p.created_at
        FROM corebank.parked_changes p
        WHERE wanted IS NULL OR corebank_internal.change_status(p.status, p.expires_at) = wanted
    ), chosen AS (
        SELECT h.id, h.created_at FROM hits h
        ORDER BY h.created_at DESC, h.id
        LIMIT page_size OFFSET page_number::bigint * page_size
    )
    SELECT (SELECT count(*) FROM hits),
           (SELECT jsonb_agg(corebank_internal.parked_change_json(c.id) ORDER BY c.created_at DESC, c.id) FROM chosen c)
    INTO total, content;
    RETURN corebank_internal.page_json(content, page_number, page_size, total);
END
$fn$;
