-- The consent status a caller sees: granted, declined, or not_recorded when
-- no consent row exists (granted is then NULL). LANGUAGE sql, IMMUTABLE, no
-- SET clause: the planner inlines it into the session, report and hosted JSON.
CREATE FUNCTION corebank_internal.verify_consent_status(granted boolean) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT CASE WHEN granted THEN 'granted' WHEN NOT granted THEN 'declined' ELSE 'not_recorded' END
$fn$;
