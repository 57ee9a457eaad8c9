-- A string member: at most `length_max` characters (after btrim when
-- `trimmed`), NULL when absent, null or empty.
CREATE FUNCTION corebank_internal.json_string(value jsonb, path text, length_max int, trimmed bool) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    string text := corebank_internal.json_member(value, 'string', path, 'a string') #>> '{}';
BEGIN
    IF trimmed THEN
        string := btrim(string);
    END IF;
    IF length(string) > length_max THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be at most %s characters', path, length_max));
    END IF;
    RETURN nullif(string, '');
END
$fn$;
