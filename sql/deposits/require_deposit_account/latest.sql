-- 1.8 (issue 15, branch scoping): a deposit account the transaction may see,
-- or CB404 'Account not found', as an unknown id answers; for the reads and
-- amends that name an account (never for a posting, which is not scoped).
CREATE FUNCTION corebank_internal.require_deposit_account(account uuid) RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF NOT EXISTS (SELECT FROM corebank.deposit_accounts d JOIN corebank.ledger_accounts a ON a.id = d.id
                   WHERE d.id = account AND corebank.branch_visible(a.branch_id)) THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
END
$fn$;
