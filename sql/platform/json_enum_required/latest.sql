-- A required enumeration member: json_enum's rules, and when it is absent
-- or blank CBV00 "<key>: is required (A, B or C)" naming the values.
CREATE FUNCTION corebank_internal.json_enum_required(request jsonb, key text, allowed text[]) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value text := corebank_internal.json_enum(request, key, allowed);
    n int := cardinality(allowed);
BEGIN
    IF value IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: is required (%s or %s)', key,
                                                       array_to_string(allowed[1:n - 1], ', '), allowed[n]));
    END IF;
    RETURN value;
END
$fn$;
