-- A required argument, refused with CBV00 '<name>: is required' when NULL.
-- It returns the value, so a call can wrap the argument where it is used;
-- required_id is the same rule for the plain `id` of a get.
CREATE FUNCTION corebank_internal.require_present(value anyelement, name text) RETURNS anyelement
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF value IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', name || ': is required');
    END IF;
    RETURN value;
END
$fn$;
