-- Members of a request object, refusing wrong types with CBV00.
CREATE OR REPLACE FUNCTION corebank_internal.json_text(request jsonb, key text, length_max int) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT corebank_internal.json_string(request -> key, key, length_max, false) $fn$;
