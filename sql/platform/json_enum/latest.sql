-- An enumeration member, case-insensitive; NULL when absent or blank.
CREATE FUNCTION corebank_internal.json_enum(request jsonb, key text, allowed text[]) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value text := upper(btrim(corebank_internal.json_text(request, key, 40)));
BEGIN
    IF value IS NULL OR value = '' THEN
        RETURN NULL;
    END IF;
    IF NOT value = ANY (allowed) THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be one of %s', key, array_to_string(allowed, ', ')));
    END IF;
    RETURN value;
END
$fn$;
