-- A trimmed text member; NULL when absent, null or blank.
CREATE FUNCTION corebank_internal.json_trimmed(request jsonb, key text, length_max int) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT nullif(btrim(corebank_internal.json_text(request, key, length_max)), '') $fn$;
