-- The passbook a print confirmation or a reprint works on, locked: CB404
-- when there is none, CB409 (`refused`, a format given its status) when it
-- is not the live (ACTIVE) book.
CREATE FUNCTION corebank_internal.passbook_lock_live(id uuid, refused text) RETURNS corebank.passbooks
    LANGUAGE plpgsql
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.passbooks;
BEGIN
    SELECT * INTO b FROM corebank.passbooks x WHERE x.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Passbook not found');
    END IF;
    IF b.status <> 'ACTIVE' THEN
        PERFORM corebank_internal.fail('CB409', format(refused, b.status));
    END IF;
    RETURN b;
END
$fn$;
