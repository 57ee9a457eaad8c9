CREATE FUNCTION corebank_internal.page_bounds(page int, size int) RETURNS int[]
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF coalesce(page, 0) NOT BETWEEN 0 AND 1000000 THEN
        PERFORM corebank_internal.fail('CBV00', 'page: must be from 0 to 1000000');
    END IF;
    IF coalesce(size, 25) NOT BETWEEN 1 AND 200 THEN
        PERFORM corebank_internal.fail('CBV00', 'size: must be from 1 to 200');
    END IF;
    RETURN ARRAY[coalesce(page, 0), coalesce(size, 25)];
END
$fn$;
