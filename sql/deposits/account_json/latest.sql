CREATE OR REPLACE FUNCTION corebank_internal.account_json(account uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', a.id, 'accountNumber', a.account_number, 'name', a.name, 'customerId', d.customer_id,
                'customerNumber', c.customer_number, 'productId', p.id, 'productCode', p.code,
                'productName', p.name, 'accountType', d.account_type, 'currency', a.currency, 'status', a.status,
                'branchId', a.branch_id, 'branchCode', b.code, 'glAccountCode', g.code,
                'balanceMinor', x.balance, 'balance', corebank_internal.money_text(x.balance, a.currency),
                'availableBalanceMinor', x.available,
                'availableBalance', corebank_internal.money_text(x.available, a.currency),
                'minimumBalanceMinor', p.minimum_balance_minor, 'allowOverdraftMinor', a.allow_overdraft_minor,
                'accruedInterestMinor', d.accrued_minor,
                'accruedInterest', corebank_internal.money_text(d.accrued_minor, a.currency),
                'interestProcessedThrough', d.processed_through, 'openedOn', d.opened_on,
                'activatedAt', corebank_internal.iso_utc(d.activated_at), 'maturityDate', d.maturity_date,
                'lastCustomerActivityOn', d.last_customer_activity_on, 'dormantSince', d.dormant_since,
                'frozenReason', d.frozen_reason, 'closedAt', corebank_internal.iso_utc(d.closed_at),
                'closedBy', d.closed_by, 'createdAt', corebank_internal.iso_utc(a.created_at),
                'updatedAt', corebank_internal.iso_utc(greatest(a.updated_at, d.updated_at)))
            FROM corebank.deposit_accounts d
            JOIN corebank.ledger_accounts a ON a.id = d.id
            JOIN corebank.deposit_products p ON p.id = d.product_id
            JOIN corebank.gl_accounts g ON g.id = a.gl_account_id
            JOIN corebank.branches b ON b.id = a.branch_id
            LEFT JOIN corebank.customers c ON c.id = d.customer_id
            CROSS JOIN LATERAL (
                SELECT y.balance,
                       CASE WHEN a.status IN ('ACTIVE', 'DORMANT')
                            THEN greatest(least(y.balance - p.minimum_balance_minor + a.allow_overdraft_minor,
                                                corebank_internal.limit_amount_minor_max()), 0)
                            ELSE 0 END::bigint AS available
                FROM (SELECT corebank_internal.account_balance(a.id) AS balance) y) x
            WHERE d.id = account);
END
$fn$;
