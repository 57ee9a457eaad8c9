-- {name, accountNumber, bankSwiftCode? (absent: an account of this bank),
--  currency? (required for another bank), nickname?}
CREATE FUNCTION corebank.core_customers_beneficiary_add(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.beneficiaries;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    PERFORM corebank_internal.require_customer(id);
    b.name := corebank_internal.json_trimmed(request, 'name', 200);
    b.account_number := upper(corebank_internal.json_trimmed(request, 'accountNumber', 34));
    b.bank_swift_code := upper(corebank_internal.json_trimmed(request, 'bankSwiftCode', 11));
    b.nickname := corebank_internal.json_trimmed(request, 'nickname', 100);
    b.currency := upper(corebank_internal.json_trimmed(request, 'currency', 3));
    IF b.name IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'name: is required'); END IF;
    IF b.account_number IS NULL OR b.account_number !~ '^[A-Z0-9-]{1,34}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'accountNumber: must be 1 to 34 of A-Z 0-9 -');
    END IF;
    IF b.bank_swift_code !~ '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$' THEN
        PERFORM corebank_internal.fail('CBV00', 'bankSwiftCode: must be a SWIFT/BIC code of 8 or 11 characters');
    END IF;
    IF b.currency IS NOT NULL AND NOT EXISTS (SELECT FROM corebank.currencies c WHERE c.code = b.currency) THEN
        PERFORM corebank_internal.fail('CBV00', 'currency: must be USD or ZWG');
    END IF;
    IF b.bank_swift_code IS NULL THEN
        SELECT a.id, a.currency INTO b.account_id, b.currency FROM corebank.ledger_accounts a
        WHERE upper(a.account_number) = b.account_number;
        IF b.account_id IS NULL THEN
            PERFORM corebank_internal.fail('CB404', 'No account with this number in this bank');
        END IF;
        IF corebank_internal.json_trimmed(request, 'currency', 3) IS NOT NULL
           AND upper(corebank_internal.json_trimmed(request, 'currency', 3)) <> b.currency THEN
            PERFORM corebank_internal.fail('CB422', format('The account is in %s', b.currency));
        END IF;
    ELSIF b.currency IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'currency: is required for an account at another bank');
    END IF;
    INSERT INTO corebank.beneficiaries AS x (customer_id, name, account_number, bank_swift_code, account_id, currency,
                                             nickname, created_by)
    VALUES (id, b.name, b.account_number, b.bank_swift_code, b.account_id, b.currency, b.nickname, actor)
    RETURNING x.* INTO b;
    RETURN corebank_internal.beneficiary_json(b);
END
$fn$;
