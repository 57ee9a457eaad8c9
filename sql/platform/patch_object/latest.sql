-- The nested object of a PATCH member: NULL when the member is omitted,
-- '{}'::jsonb flagged by `clear` when it is null or blank (clear every
-- field), the object otherwise. Unknown members are refused.
CREATE FUNCTION corebank_internal.patch_object(patch jsonb, key text, allowed text[], OUT obj jsonb, OUT clear bool)
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value jsonb := patch -> key;
    member text;
BEGIN
    clear := false;
    IF value IS NULL THEN
        RETURN;
    END IF;
    IF jsonb_typeof(value) = 'null' OR (jsonb_typeof(value) = 'string' AND btrim(value #>> '{}') = '') THEN
        clear := true;
        obj := '{}'::jsonb;
        RETURN;
    END IF;
    IF jsonb_typeof(value) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be an object', key));
    END IF;
    FOR member IN SELECT jsonb_object_keys(value) LOOP
        IF NOT member = ANY (allowed) THEN
            PERFORM corebank_internal.fail('CBV00', format('%s.%s: unknown field', key, member));
        END IF;
    END LOOP;
    obj := value;
END
$fn$;
