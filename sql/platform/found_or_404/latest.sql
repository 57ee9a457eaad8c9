-- A rendered object, or CB404 with `not_found` when there was none: the
-- answer of every get by id or by number.
CREATE FUNCTION corebank_internal.found_or_404(rendered jsonb, not_found text) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', not_found);
    END IF;
    RETURN rendered;
END
$fn$;
