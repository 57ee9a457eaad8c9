-- Opens a customer (ledger) account on a control GL account. Internal for
-- the ledger tests; issue 4 puts products and lifecycle around it.
-- Request: {accountNumber?, customerId?, name?, glAccountId? | glAccountCode?,
-- currency? (default USD), branchId? | branchCode? (default head office),
-- allowOverdraftMinor? (default 0)}.
CREATE OR REPLACE FUNCTION corebank.ledger_account_open(request jsonb) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    account_number text := corebank_internal.json_text(request, 'accountNumber', 34);
    customer_text text := corebank_internal.json_text(request, 'customerId', 36);
    account_name text := corebank_internal.json_text(request, 'name', 200);
    gl_text text := corebank_internal.json_text(request, 'glAccountId', 36);
    gl_code text := corebank_internal.json_text(request, 'glAccountCode', 20);
    account_currency text := coalesce(corebank_internal.json_text(request, 'currency', 3), 'USD');
    branch_text text := corebank_internal.json_text(request, 'branchId', 36);
    branch_code text := corebank_internal.json_text(request, 'branchCode', 10);
    overdraft corebank.amount_minor := coalesce(corebank_internal.json_int(request, 'allowOverdraftMinor', 0,
                                                                           corebank_internal.limit_amount_minor_max()), 0);
    uuid_pattern CONSTANT text := '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
    gl corebank.gl_accounts;
    branch uuid;
    new_id uuid;
BEGIN
    PERFORM corebank_internal.require_object(request);
    IF customer_text !~ uuid_pattern THEN
        PERFORM corebank_internal.fail('CBV00', 'customerId: must be a UUID');
    END IF;
    IF gl_text !~ uuid_pattern THEN
        PERFORM corebank_internal.fail('CBV00', 'glAccountId: must be a UUID');
    END IF;
    IF branch_text !~ uuid_pattern THEN
        PERFORM corebank_internal.fail('CBV00', 'branchId: must be a UUID');
    END IF;
    IF account_number !~ '^[A-Za-z0-9-]{1,34}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'accountNumber: must be 1 to 34 of A-Z a-z 0-9 -');
    END IF;
    IF gl_text IS NOT NULL THEN
        SELECT * INTO gl FROM corebank.gl_accounts g WHERE g.id = gl_text::uuid;
    ELSIF gl_code IS NOT NULL THEN
        SELECT * INTO gl FROM corebank.gl_accounts g WHERE g.code = gl_code AND g.currency = account_currency;
    ELSE
        PERFORM corebank_internal.fail('CBV00', 'glAccountId: is required (or glAccountCode)');
    END IF;
    IF gl.id IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'GL account not found');
    END IF;
    IF NOT gl.active THEN
        PERFORM corebank_internal.fail('CB422', format('GL account %s (%s) is inactive', gl.code, gl.currency));
    END IF;
    IF branch_text IS NOT NULL THEN
        SELECT b.id INTO branch FROM corebank.branches b WHERE b.id = branch_text::uuid AND b.active;
    ELSIF branch_code IS NOT NULL THEN
        SELECT b.id INTO branch FROM corebank.branches b WHERE b.code = branch_code AND b.active;
    ELSE
        SELECT b.id INTO branch FROM corebank.branches b WHERE b.is_head_office;
    END IF;
    IF branch IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Branch not found or inactive');
    END IF;

    INSERT INTO corebank.ledger_accounts AS a (account_number, customer_id, name, gl_account_id, currency,
                                               branch_id, allow_overdraft_minor)
    VALUES (coalesce(account_number, corebank.next_number('ACCOUNT')), customer_text::uuid, account_name, gl.id,
            gl.currency, branch, overdraft)
    ON CONFLICT DO NOTHING
    RETURNING a.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'An account with this account number already exists');
    END IF;
    RETURN corebank_internal.ledger_account_json(new_id);
END
$fn$;
