-- A request member of one JSON type: NULL when absent or null, the value
-- when jsonb_typeof is `json_type`, else CBV00 "<path>: must be <expected>".
CREATE FUNCTION corebank_internal.json_member(value jsonb, json_type text, path text, expected text) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(value) <> json_type THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be %s', path, expected));
    END IF;
    RETURN value;
END
$fn$;
