CREATE OR REPLACE FUNCTION corebank_internal.ledger_account_json(account_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', a.id, 'accountNumber', a.account_number, 'customerId', a.customer_id, 'name', a.name,
                'glAccountId', a.gl_account_id, 'glAccountCode', g.code, 'currency', a.currency,
                'branchId', a.branch_id, 'status', a.status,
                'allowOverdraftMinor', a.allow_overdraft_minor, 'balanceMinor', corebank_internal.account_balance(a.id),
                'balance', corebank_internal.amount_text(corebank_internal.account_balance(a.id), c.minor_units),
                'version', a.version, 'createdAt', corebank_internal.iso_utc(a.created_at),
                'updatedAt', corebank_internal.iso_utc(a.updated_at))
            FROM corebank.ledger_accounts a
            JOIN corebank.gl_accounts g ON g.id = a.gl_account_id
            JOIN corebank.currencies c ON c.code = a.currency
            WHERE a.id = ledger_account_json.account_id);
END
$fn$;
