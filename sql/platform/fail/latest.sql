-- Raises `message` with SQLSTATE `code` (one of the CB class) from
-- PL/pgSQL bodies, so each failure is one readable line.
CREATE FUNCTION corebank_internal.fail(code text, message text) RETURNS void
    LANGUAGE plpgsql
    AS $fn$
BEGIN
    RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message;
END
$fn$;
