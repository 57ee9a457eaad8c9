-- OpenAccountRequest (docs/design/deposits.md).
-- 1.8 (issue 15, branch scoping): a customer the actor's branch cannot see is
-- not found, and so is a branch the account would open in that it cannot see.
CREATE OR REPLACE FUNCTION corebank.core_accounts_open(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    today date := corebank_internal.business_today();
    product_id uuid;
    product_code text;
    p corebank.deposit_products;
    c corebank.customers;
    customer uuid;
    gl corebank.gl_accounts;
    gl_code text;
    branch uuid;
    opening_status text;
    initial jsonb;
    initial_amount bigint;
    new_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    product_id := corebank_internal.json_uuid(request, 'productId');
    product_code := upper(corebank_internal.json_trimmed(request, 'productCode', 20));
    customer := corebank_internal.json_uuid(request, 'customerId');
    initial := request -> 'initialDeposit';
    IF product_id IS NULL AND product_code IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'productCode: is required (or productId)');
    END IF;
    SELECT * INTO p FROM corebank.deposit_products x
    WHERE (product_id IS NOT NULL AND x.id = product_id) OR (product_id IS NULL AND x.code = product_code);
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Deposit product not found');
    END IF;
    IF NOT p.active THEN
        PERFORM corebank_internal.fail('CB422', format('Deposit product %s is not offered any more', p.code));
    END IF;
    IF initial IS NOT NULL AND jsonb_typeof(initial) = 'null' THEN
        initial := NULL;
    END IF;
    IF initial IS NOT NULL THEN
        PERFORM corebank_internal.require_object(initial, 'initialDeposit');
        initial_amount := corebank_internal.json_positive_amount(initial);
    END IF;

    IF customer IS NOT NULL THEN
        -- FOR SHARE: the customer cannot change status under the opening.
        SELECT * INTO c FROM corebank.customers x WHERE x.id = customer AND corebank.branch_visible(x.branch_id)
        FOR SHARE;
        IF NOT FOUND THEN
            PERFORM corebank_internal.fail('CB404', 'Customer not found');
        END IF;
        IF c.status <> 'ACTIVE' THEN
            PERFORM corebank_internal.fail('CB422', 'The customer is not ACTIVE');
        END IF;
        IF c.risk_category = 'PROHIBITED' THEN
            PERFORM corebank_internal.fail('CB422', 'The customer''s risk category is PROHIBITED: no account may be opened');
        END IF;
    ELSIF NOT p.internal THEN
        PERFORM corebank_internal.fail('CBV00', 'customerId: is required');
    END IF;

    gl_code := p.gl_account_code;
    IF p.account_type = 'GL' THEN
        gl_code := coalesce(corebank_internal.json_trimmed(request, 'glAccountCode', 20), gl_code);
    ELSIF request ? 'glAccountCode' AND jsonb_typeof(request -> 'glAccountCode') <> 'null' THEN
        PERFORM corebank_internal.fail('CBV00', 'glAccountCode: only a GL-type account names its GL account');
    END IF;
    SELECT * INTO gl FROM corebank.gl_accounts g WHERE g.code = gl_code AND g.currency = p.currency;
    IF NOT FOUND OR NOT gl.active THEN
        PERFORM corebank_internal.fail('CB422', format('GL account %s (%s) is missing or inactive', gl_code, p.currency));
    END IF;
    branch := corebank_internal.request_branch(request, actor, c.branch_id);
    IF NOT corebank.branch_visible(branch) THEN
        PERFORM corebank_internal.fail('CB404', 'Branch not found');
    END IF;
    IF NOT (SELECT b.active FROM corebank.branches b WHERE b.id = branch) THEN
        PERFORM corebank_internal.fail('CB422', 'The branch is inactive');
    END IF;

    opening_status := CASE WHEN p.requires_activation THEN 'PENDING_ACTIVATION' ELSE 'ACTIVE' END;
    IF initial IS NOT NULL AND opening_status <> 'ACTIVE' THEN
        PERFORM corebank_internal.fail('CB422', 'The account needs activation before it takes a deposit');
    END IF;
    IF p.minimum_opening_minor > 0 AND opening_status = 'ACTIVE' AND coalesce(initial_amount, 0) < p.minimum_opening_minor THEN
        PERFORM corebank_internal.fail('CB422', format('Product %s needs an initial deposit of at least %s', p.code,
                                                       corebank_internal.money_text(p.minimum_opening_minor, p.currency)));
    END IF;

    INSERT INTO corebank.ledger_accounts AS a (account_number, customer_id, name, gl_account_id, currency, branch_id,
                                               status, allow_overdraft_minor)
    VALUES (corebank.next_number('ACCOUNT'), customer,
            coalesce(corebank_internal.json_trimmed(request, 'name', 200), p.name), gl.id, gl.currency, branch,
            opening_status, p.allow_overdraft_minor)
    ON CONFLICT DO NOTHING
    RETURNING a.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'The next account number is already taken; move the ACCOUNT numbering forward');
    END IF;
    INSERT INTO corebank.deposit_accounts (id, product_id, account_type, customer_id, opened_on, opened_by, maturity_date,
                                           processed_through, activated_at, activated_by)
    VALUES (new_id, p.id, p.account_type, customer, today, actor,
            CASE WHEN p.term_days IS NOT NULL THEN today + p.term_days END, today - 1,
            CASE WHEN opening_status = 'ACTIVE' THEN now() END, CASE WHEN opening_status = 'ACTIVE' THEN actor END);
    INSERT INTO corebank.account_status_history (account_id, from_status, to_status, reason, actor_id)
    VALUES (new_id, NULL, opening_status, 'opened', actor);

    IF initial IS NOT NULL THEN
        PERFORM corebank_internal.money_deposit(initial || jsonb_build_object('accountId', new_id), actor, true);
    END IF;
    RETURN corebank_internal.account_json(new_id);
END
$fn$;
