CREATE FUNCTION corebank_internal.refuse_audit_change() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RAISE EXCEPTION 'corebank.auth_audit is append-only'
        USING ERRCODE = 'insufficient_privilege', DETAIL = format('%s refused', TG_OP);
END
$fn$;
