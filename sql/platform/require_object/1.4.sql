CREATE FUNCTION corebank_internal.require_object(request jsonb, name text DEFAULT 'request') RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF request IS NULL OR jsonb_typeof(request) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a JSON object', name));
    END IF;
    RETURN request;
END
$fn$;
