-- An integer member (a JSON integer or a string of digits) within bounds.
CREATE FUNCTION corebank_internal.json_int(request jsonb, key text, minimum bigint, maximum bigint) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value jsonb := request -> key;
    digits text;
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN NULL;
    END IF;
    digits := value #>> '{}';
    IF jsonb_typeof(value) NOT IN ('number', 'string') OR digits !~ '^-?[0-9]{1,18}$'
       OR digits::bigint NOT BETWEEN minimum AND maximum THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be an integer from %s to %s', key, minimum, maximum));
    END IF;
    RETURN digits::bigint;
END
$fn$;
