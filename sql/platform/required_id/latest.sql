-- The id of a read by id, refused with CBV00 when absent: every get
-- checks it before it renders anything.
CREATE FUNCTION corebank_internal.required_id(id uuid) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    RETURN id;
END
$fn$;
