CREATE FUNCTION corebank_internal.verify_refuse_event_change() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RAISE EXCEPTION 'corebank.verify_session_events is append-only'
        USING ERRCODE = 'insufficient_privilege', DETAIL = format('%s refused', TG_OP);
END
$fn$;
