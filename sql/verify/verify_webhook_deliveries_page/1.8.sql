-- An endpoint's delivery log, newest first, a page at a time: {data,
-- hasMore}; starting_after is the last delivery id of the previous page.
CREATE FUNCTION corebank.verify_webhook_deliveries_page(endpoint_id uuid, max_rows int, starting_after uuid)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    cursor_at timestamptz;
    page jsonb;
    more bool;
BEGIN
    PERFORM corebank_internal.require_present(endpoint_id, 'endpoint_id');
    IF max_rows IS NULL OR max_rows NOT BETWEEN 1 AND 100 THEN
        PERFORM corebank_internal.fail('CBV00', 'limit: must be between 1 and 100');
    END IF;
    PERFORM 1 FROM corebank.verify_webhook_endpoints e WHERE e.id = endpoint_id;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Webhook endpoint not found');
    END IF;
    IF starting_after IS NOT NULL THEN
        SELECT d.created_at INTO cursor_at FROM corebank.verify_webhook_deliveries d
        WHERE d.id = starting_after AND d.endpoint_id = endpoint_id;
        IF NOT FOUND THEN
            PERFORM corebank_internal.fail('CBV00', 'startingAfter: names no delivery of this endpoint');
        END IF;
    END IF;
    WITH rows AS (
        SELECT d.id, d.created_at
        FROM corebank.verify_webhook_deliveries d
        WHERE d.endpoint_id = endpoint_id
          AND (starting_after IS NULL OR (d.created_at, d.id) < (cursor_at, starting_after))
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT max_rows + 1
    ), numbered AS (
        SELECT r.id, row_number() OVER (ORDER BY r.created_at DESC, r.id DESC) AS n FROM rows r
    )
    SELECT coalesce(jsonb_agg(corebank_internal.verify_webhook_delivery_json(n.id) ORDER BY n.n)
                        FILTER (WHERE n.n <= max_rows), '[]'::jsonb),
           count(*) > max_rows
    INTO page, more
    FROM numbered n;
    RETURN jsonb_build_object('data', page, 'hasMore', more);
END
$fn$;
