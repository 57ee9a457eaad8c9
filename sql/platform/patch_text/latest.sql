-- A profile leaf of a PATCH: trimmed text, or NULL for null/blank; the
-- message names the full path ("address.city: ...").
CREATE FUNCTION corebank_internal.patch_text(obj jsonb, key text, path text, length_max int) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value jsonb := obj -> key;
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(value) <> 'string' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a string', path));
    END IF;
    IF length(btrim(value #>> '{}')) > length_max THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be at most %s characters', path, length_max));
    END IF;
    RETURN nullif(btrim(value #>> '{}'), '');
END
$fn$;
