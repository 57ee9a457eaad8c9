-- The operator recorded by jobs run without a person.
CREATE FUNCTION corebank_internal.system_actor() RETURNS uuid
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT '00000000-0000-0000-0000-000000000000'::uuid $fn$;
