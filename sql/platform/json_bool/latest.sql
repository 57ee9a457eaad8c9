CREATE OR REPLACE FUNCTION corebank_internal.json_bool(request jsonb, key text) RETURNS bool
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT (corebank_internal.json_member(request -> key, 'boolean', key, 'true or false') #>> '{}')::bool $fn$;
