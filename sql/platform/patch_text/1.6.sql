-- A profile leaf of a PATCH: trimmed text, or NULL for null/blank; the
-- message names the full path ("address.city: ...").
CREATE OR REPLACE FUNCTION corebank_internal.patch_text(obj jsonb, key text, path text, length_max int) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT corebank_internal.json_string(obj -> key, path, length_max, true) $fn$;
