CREATE FUNCTION corebank_internal.require_actor(actor uuid) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF actor IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'actor: is required');
    END IF;
END
$fn$;
