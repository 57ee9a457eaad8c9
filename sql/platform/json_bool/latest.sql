CREATE FUNCTION corebank_internal.json_bool(request jsonb, key text) RETURNS bool
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value jsonb := request -> key;
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(value) <> 'boolean' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be true or false', key));
    END IF;
    RETURN value::text::bool;
END
$fn$;
