-- Endpoints newest first, a page at a time: {data, hasMore}. starting_after
-- is the last id of the previous page (Stripe's cursor); an id that names no
-- endpoint is refused rather than read as the start.
CREATE FUNCTION corebank.verify_webhook_endpoints_page(max_rows int, starting_after uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    cursor_at timestamptz;
    page jsonb;
    more bool;
BEGIN
    IF max_rows IS NULL OR max_rows NOT BETWEEN 1 AND 100 THEN
        PERFORM corebank_internal.fail('CBV00', 'limit: must be between 1 and 100');
    END IF;
    IF starting_after IS NOT NULL THEN
        SELECT e.created_at INTO cursor_at FROM corebank.verify_webhook_endpoints e WHERE e.id = starting_after;
        IF NOT FOUND THEN
            PERFORM corebank_internal.fail('CBV00', 'startingAfter: names no webhook endpoint');
        END IF;
    END IF;
    WITH rows AS (
        SELECT e.id, e.created_at
        FROM corebank.verify_webhook_endpoints e
        WHERE starting_after IS NULL OR (e.created_at, e.id) < (cursor_at, starting_after)
        ORDER BY e.created_at DESC, e.id DESC
        LIMIT max_rows + 1
    ), numbered AS (
        SELECT r.id, row_number() OVER (ORDER BY r.created_at DESC, r.id DESC) AS n FROM rows r
    )
    SELECT coalesce(jsonb_agg(corebank_internal.verify_webhook_endpoint_json(n.id) ORDER BY n.n)
                        FILTER (WHERE n.n <= max_rows), '[]'::jsonb),
           count(*) > max_rows
    INTO page, more
    FROM numbered n;
    RETURN jsonb_build_object('data', page, 'hasMore', more);
END
$fn$;
