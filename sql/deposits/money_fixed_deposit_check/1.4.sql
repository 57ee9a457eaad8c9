-- A fixed deposit takes one deposit: its first posting.
CREATE FUNCTION corebank_internal.money_fixed_deposit_check(account uuid, account_type text, account_number text)
    RETURNS void
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    IF account_type = 'FIXED_DEPOSIT' AND EXISTS (SELECT FROM corebank.journal_entries e WHERE e.ledger_account_id = account) THEN
        PERFORM corebank_internal.fail('CB422', format('Fixed deposit %s takes a single deposit', account_number));
    END IF;
END
$fn$;
