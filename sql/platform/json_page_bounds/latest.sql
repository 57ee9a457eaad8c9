-- The page and size members of a list filter as page_bounds gives them:
-- {page? (0 to 1000000), size? (1 to limit_page_size_max())}, CBV00 on a
-- wrong member.
CREATE FUNCTION corebank_internal.json_page_bounds(filter jsonb) RETURNS int[]
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT corebank_internal.page_bounds(corebank_internal.json_int(filter, 'page', 0, 1000000)::int,
                                         corebank_internal.json_int(filter, 'size', 1, corebank_internal.limit_page_size_max())::int)
$fn$;
