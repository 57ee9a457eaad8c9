-- Members of a request object, refusing wrong types with CBV00.
CREATE FUNCTION corebank_internal.json_text(request jsonb, key text, length_max int) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value jsonb := request -> key;
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(value) <> 'string' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a string', key));
    END IF;
    IF length(value #>> '{}') > length_max THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be at most %s characters', key, length_max));
    END IF;
    RETURN nullif(value #>> '{}', '');
END
$fn$;
