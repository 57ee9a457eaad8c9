CREATE OR REPLACE FUNCTION corebank_internal.page_bounds(page int, size int) RETURNS int[]
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF coalesce(page, 0) NOT BETWEEN 0 AND 1000000 THEN
        PERFORM corebank_internal.fail('CBV00', 'page: must be from 0 to 1000000');
    END IF;
    IF coalesce(size, corebank_internal.limit_page_size_default()) NOT BETWEEN 1 AND corebank_internal.limit_page_size_max() THEN
        PERFORM corebank_internal.fail('CBV00', format('size: must be from 1 to %s', corebank_internal.limit_page_size_max()));
    END IF;
    RETURN ARRAY[coalesce(page, 0), coalesce(size, corebank_internal.limit_page_size_default())];
END
$fn$;
