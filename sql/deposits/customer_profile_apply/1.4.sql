-- Applies a profile PATCH: an omitted member is left alone, a null or blank
-- one is cleared, identity fields and unknown members are refused.
CREATE FUNCTION corebank_internal.customer_profile_apply(customer uuid, patch jsonb, actor uuid) RETURNS void
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    identity_fields CONSTANT text[] := ARRAY['id', 'type', 'customerNumber', 'firstName', 'middleName', 'lastName',
        'dateOfBirth', 'gender', 'nationalId', 'nationality', 'legalName', 'tradingName', 'registrationNumber',
        'incorporationDate', 'countryOfIncorporation', 'status', 'riskCategory', 'signingMandate'];
    profile_fields CONSTANT text[] := ARRAY['email', 'phone', 'address', 'employment', 'declaredIncome'];
    p corebank.customer_profiles;
    member text;
    part record;
    income jsonb;
    amount bigint;
BEGIN
    IF patch IS NULL OR jsonb_typeof(patch) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'profile: must be a JSON object');
    END IF;
    FOR member IN SELECT jsonb_object_keys(patch) LOOP
        IF member = ANY (identity_fields) THEN
            PERFORM corebank_internal.fail('CBV00', format('%s: identity fields cannot be changed through the profile', member));
        END IF;
        IF NOT member = ANY (profile_fields) THEN
            PERFORM corebank_internal.fail('CBV00', format('%s: unknown field', member));
        END IF;
    END LOOP;

    INSERT INTO corebank.customer_profiles (customer_id, updated_by) VALUES (customer, actor)
    ON CONFLICT (customer_id) DO NOTHING;
    SELECT * INTO p FROM corebank.customer_profiles x WHERE x.customer_id = customer FOR UPDATE;

    IF patch ? 'email' THEN
        p.email := lower(corebank_internal.patch_text(patch, 'email', 'email', 254));
        IF p.email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' THEN
            PERFORM corebank_internal.fail('CBV00', 'email: must be an email address');
        END IF;
    END IF;
    IF patch ? 'phone' THEN
        p.phone := corebank_internal.patch_text(patch, 'phone', 'phone', 16);
        IF p.phone !~ '^\+?[0-9]{10,15}$' THEN
            PERFORM corebank_internal.fail('CBV00', 'phone: must be 10 to 15 digits, optionally after +');
        END IF;
    END IF;

    SELECT * INTO part FROM corebank_internal.patch_object(patch, 'address',
        ARRAY['line1', 'line2', 'city', 'province', 'postalCode', 'country']);
    IF part.obj IS NOT NULL THEN
        IF part.clear OR part.obj ? 'line1' THEN p.address_line1 := corebank_internal.patch_text(part.obj, 'line1', 'address.line1', 200); END IF;
        IF part.clear OR part.obj ? 'line2' THEN p.address_line2 := corebank_internal.patch_text(part.obj, 'line2', 'address.line2', 200); END IF;
        IF part.clear OR part.obj ? 'city' THEN p.city := corebank_internal.patch_text(part.obj, 'city', 'address.city', 100); END IF;
        IF part.clear OR part.obj ? 'province' THEN p.province := corebank_internal.patch_text(part.obj, 'province', 'address.province', 100); END IF;
        IF part.clear OR part.obj ? 'postalCode' THEN p.postal_code := corebank_internal.patch_text(part.obj, 'postalCode', 'address.postalCode', 20); END IF;
        IF part.clear OR part.obj ? 'country' THEN
            p.country := upper(corebank_internal.patch_text(part.obj, 'country', 'address.country', 2));
            IF p.country !~ '^[A-Z]{2}$' THEN
                PERFORM corebank_internal.fail('CBV00', 'address.country: must be an ISO 3166 alpha-2 country code such as ZW');
            END IF;
        END IF;
    END IF;

    SELECT * INTO part FROM corebank_internal.patch_object(patch, 'employment', ARRAY['status', 'employerName', 'occupation']);
    IF part.obj IS NOT NULL THEN
        IF part.clear OR part.obj ? 'status' THEN
            p.employment_status := upper(corebank_internal.patch_text(part.obj, 'status', 'employment.status', 20));
            IF p.employment_status NOT IN ('EMPLOYED', 'SELF_EMPLOYED', 'UNEMPLOYED', 'RETIRED', 'STUDENT') THEN
                PERFORM corebank_internal.fail('CBV00',
                    'employment.status: must be one of EMPLOYED, SELF_EMPLOYED, UNEMPLOYED, RETIRED, STUDENT');
            END IF;
        END IF;
        IF part.clear OR part.obj ? 'employerName' THEN p.employer_name := corebank_internal.patch_text(part.obj, 'employerName', 'employment.employerName', 200); END IF;
        IF part.clear OR part.obj ? 'occupation' THEN p.occupation := corebank_internal.patch_text(part.obj, 'occupation', 'employment.occupation', 100); END IF;
    END IF;

    SELECT * INTO part FROM corebank_internal.patch_object(patch, 'declaredIncome',
        ARRAY['amountMinor', 'amount', 'currency', 'frequency']);
    IF part.obj IS NOT NULL THEN
        income := part.obj;
        IF part.clear OR income ? 'amountMinor' OR income ? 'amount' THEN
            -- A blank amount clears it, like every other member.
            IF jsonb_typeof(income -> 'amount') = 'string' AND btrim(income ->> 'amount') = '' THEN
                income := income - 'amount';
            END IF;
            amount := corebank_internal.json_amount_minor(income);
            p.declared_income_minor := amount;
        END IF;
        IF part.clear OR income ? 'currency' THEN
            p.income_currency := upper(corebank_internal.patch_text(income, 'currency', 'declaredIncome.currency', 3));
            IF p.income_currency IS NOT NULL
               AND NOT EXISTS (SELECT FROM corebank.currencies c WHERE c.code = p.income_currency) THEN
                PERFORM corebank_internal.fail('CBV00', 'declaredIncome.currency: must be USD or ZWG');
            END IF;
        END IF;
        IF part.clear OR income ? 'frequency' THEN
            p.income_frequency := upper(corebank_internal.patch_text(income, 'frequency', 'declaredIncome.frequency', 10));
            IF p.income_frequency NOT IN ('MONTHLY', 'ANNUAL') THEN
                PERFORM corebank_internal.fail('CBV00', 'declaredIncome.frequency: must be one of MONTHLY, ANNUAL');
            END IF;
        END IF;
        -- An income is an amount with its currency and frequency.
        IF p.declared_income_minor IS NULL THEN
            p.income_currency := NULL;
            p.income_frequency := NULL;
        ELSE
            p.income_currency := coalesce(p.income_currency, (SELECT c.base_currency FROM corebank.platform_config c));
            p.income_frequency := coalesce(p.income_frequency, 'MONTHLY');
        END IF;
    END IF;

    UPDATE corebank.customer_profiles x
    SET email = p.email, phone = p.phone, address_line1 = p.address_line1, address_line2 = p.address_line2,
        city = p.city, province = p.province, postal_code = p.postal_code, country = p.country,
        employment_status = p.employment_status, employer_name = p.employer_name, occupation = p.occupation,
        declared_income_minor = p.declared_income_minor, income_currency = p.income_currency,
        income_frequency = p.income_frequency, updated_at = now(), updated_by = actor
    WHERE x.customer_id = customer;
    UPDATE corebank.customers c SET updated_at = now(), updated_by = actor WHERE c.id = customer;
END
$fn$;
