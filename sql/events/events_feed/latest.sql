-- The global stream in (occurredAt, sequence) order: {items, nextCursor}.
CREATE FUNCTION corebank.events_feed(after_micros bigint, after_id bigint, page_size int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    page_size_max CONSTANT int := 500;
BEGIN
    IF page_size IS NULL OR page_size NOT BETWEEN 1 AND page_size_max THEN
        PERFORM corebank_internal.fail('CBV00', format('limit: must be from 1 to %s', page_size_max));
    END IF;
    RETURN corebank_internal.events_page(NULL, after_micros, after_id, page_size);
END
$fn$;
