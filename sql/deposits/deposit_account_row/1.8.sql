-- The deposit account and product behind an account id, for the money
-- functions; CB404 when it is not a deposit account. `lock` takes the
-- ledger row FOR UPDATE (the posting engine's lock, taken early).
CREATE OR REPLACE FUNCTION corebank_internal.deposit_account_row(account uuid, field text, lock bool DEFAULT false,
    OUT account_id uuid, OUT account_number text, OUT currency text, OUT status text, OUT branch_id uuid,
    OUT customer_id uuid, OUT balance_minor bigint, OUT allow_overdraft_minor bigint, OUT account_type text,
    OUT internal bool, OUT minimum_balance_minor bigint, OUT withdrawal_fee_minor bigint,
    OUT penalty_bp int, OUT maturity_date date, OUT product_code text)
    LANGUAGE plpgsql
    AS $fn$
BEGIN
    IF account IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: is required', field));
    END IF;
    IF lock THEN
        PERFORM FROM corebank.ledger_accounts a WHERE a.id = account FOR UPDATE;
    END IF;
    SELECT a.id, a.account_number, a.currency::text, a.status, a.branch_id, d.customer_id, corebank_internal.account_balance(a.id),
           a.allow_overdraft_minor, d.account_type, p.internal, p.minimum_balance_minor, p.withdrawal_fee_minor,
           p.early_withdrawal_penalty_bp, d.maturity_date, p.code
    INTO account_id, account_number, currency, status, branch_id, customer_id, balance_minor, allow_overdraft_minor,
         account_type, internal, minimum_balance_minor, withdrawal_fee_minor, penalty_bp, maturity_date, product_code
    FROM corebank.deposit_accounts d
    JOIN corebank.ledger_accounts a ON a.id = d.id
    JOIN corebank.deposit_products p ON p.id = d.product_id
    WHERE d.id = account;
    IF account_id IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
END
$fn$;
