-- Appends an audit row (for the SQL-language functions; C++ inserts directly).
CREATE FUNCTION corebank_internal.audit(user_id uuid, event text, detail jsonb DEFAULT NULL)
    RETURNS void
    LANGUAGE plpgsql
    AS $fn$
BEGIN
    INSERT INTO corebank.auth_audit (at, user_id, event, detail)
    VALUES (now(), audit.user_id, audit.event, audit.detail);
END
$fn$;
