-- A page object: {content, page, size, totalElements, totalPages}.
CREATE FUNCTION corebank_internal.page_json(content jsonb, page int, size int, total bigint) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT jsonb_build_object('content', coalesce(content, '[]'::jsonb), 'page', page, 'size', size,
                              'totalElements', total, 'totalPages', (total + size - 1) / size)
$fn$;
