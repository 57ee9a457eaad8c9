-- A UUID member (CBV00 when malformed); NULL when absent.
CREATE FUNCTION corebank_internal.json_uuid(request jsonb, key text) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value text := corebank_internal.json_text(request, key, 36);
BEGIN
    IF value IS NULL THEN
        RETURN NULL;
    END IF;
    IF value !~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a UUID', key));
    END IF;
    RETURN value::uuid;
END
$fn$;
