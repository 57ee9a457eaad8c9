-- A GL account's fields as the chart allows them, checked in this order:
-- code, name, type (CBV00). NULL means "not given" and passes: a create
-- passes '' for a missing member so that it is refused, and names its own
-- message for a blank name ("is required" there, "must not be blank" on an
-- update).
CREATE FUNCTION corebank_internal.gl_account_check(code text, name text, type text, blank_name text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF code !~ '^[A-Za-z0-9._-]{1,20}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'code: must be 1 to 20 of A-Z a-z 0-9 . _ -');
    END IF;
    IF name = '' THEN
        PERFORM corebank_internal.fail('CBV00', blank_name);
    END IF;
    IF type NOT IN ('ASSET', 'LIABILITY', 'EQUITY', 'INCOME', 'EXPENSE') THEN
        PERFORM corebank_internal.fail('CBV00', 'type: must be ASSET, LIABILITY, EQUITY, INCOME or EXPENSE');
    END IF;
END
$fn$;
