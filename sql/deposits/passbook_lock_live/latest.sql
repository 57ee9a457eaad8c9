-- The passbook a print confirmation or a reprint works on, locked: CB404
-- when there is none, CB409 (`refused`, a format given its status) when it
-- is not the live (ACTIVE) book.
-- 1.8 (issue 15, branch scoping): a passbook of an account of a branch the
-- transaction cannot see is not found.
CREATE OR REPLACE FUNCTION corebank_internal.passbook_lock_live(id uuid, refused text) RETURNS corebank.passbooks
    LANGUAGE plpgsql
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.passbooks;
BEGIN
    SELECT x.* INTO b FROM corebank.passbooks x JOIN corebank.ledger_accounts a ON a.id = x.account_id
    WHERE x.id = id AND corebank.branch_visible(a.branch_id) FOR UPDATE OF x;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Passbook not found');
    END IF;
    IF b.status <> 'ACTIVE' THEN
        PERFORM corebank_internal.fail('CB409', format(refused, b.status));
    END IF;
    RETURN b;
END
$fn$;
