-- CreateCustomerRequest (docs/design/deposits.md).
CREATE OR REPLACE FUNCTION corebank.core_customers_create(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    individual_fields CONSTANT text[] := ARRAY['firstName', 'middleName', 'lastName', 'dateOfBirth', 'gender',
                                               'nationalId', 'nationality'];
    corporate_fields CONSTANT text[] := ARRAY['legalName', 'tradingName', 'registrationNumber', 'incorporationDate',
                                              'countryOfIncorporation', 'signingMandate'];
    kind text;
    today date := corebank_internal.business_today();
    c corebank.customers;
    member text;
    profile jsonb;
    new_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    kind := corebank_internal.json_enum_required(request, 'type', ARRAY['INDIVIDUAL', 'CORPORATE']);
    FOREACH member IN ARRAY CASE WHEN kind = 'INDIVIDUAL' THEN corporate_fields ELSE individual_fields END LOOP
        IF request ? member AND jsonb_typeof(request -> member) <> 'null' THEN
            PERFORM corebank_internal.fail('CBV00', format('%s: does not apply to a customer of type %s', member, kind));
        END IF;
    END LOOP;
    c.type := kind;
    c.risk_category := coalesce(corebank_internal.json_enum(request, 'riskCategory',
                                                            ARRAY['LOW', 'MEDIUM', 'HIGH', 'PROHIBITED']), 'LOW');
    c.branch_id := corebank_internal.request_branch(request, actor, NULL);
    -- A branch-scoped member creates customers in their own branch only: another
    -- branch (head office included) is as unknown as one that does not exist.
    IF NOT corebank.branch_visible(c.branch_id) THEN
        PERFORM corebank_internal.fail('CB404', 'Branch not found');
    END IF;
    IF kind = 'INDIVIDUAL' THEN
        c.first_name := corebank_internal.json_trimmed(request, 'firstName', 100);
        c.middle_name := corebank_internal.json_trimmed(request, 'middleName', 100);
        c.last_name := corebank_internal.json_trimmed(request, 'lastName', 100);
        c.date_of_birth := corebank_internal.json_date(request, 'dateOfBirth');
        c.gender := corebank_internal.json_enum(request, 'gender', ARRAY['MALE', 'FEMALE', 'OTHER']);
        c.national_id := upper(corebank_internal.json_trimmed(request, 'nationalId', 50));
        c.nationality := corebank_internal.json_country(request, 'nationality');
        IF c.first_name IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'firstName: is required'); END IF;
        IF c.last_name IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'lastName: is required'); END IF;
        IF c.date_of_birth IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'dateOfBirth: is required'); END IF;
        IF c.date_of_birth > today OR c.date_of_birth < DATE '1900-01-01' THEN
            PERFORM corebank_internal.fail('CBV00', 'dateOfBirth: must be a past date after 1900-01-01');
        END IF;
    ELSE
        c.legal_name := corebank_internal.json_trimmed(request, 'legalName', 200);
        c.trading_name := corebank_internal.json_trimmed(request, 'tradingName', 200);
        c.registration_number := upper(corebank_internal.json_trimmed(request, 'registrationNumber', 50));
        c.incorporation_date := corebank_internal.json_date(request, 'incorporationDate');
        c.country_of_incorporation := corebank_internal.json_country(request, 'countryOfIncorporation');
        c.signing_mandate := corebank_internal.json_enum(request, 'signingMandate', ARRAY['ANY_ONE', 'ANY_TWO', 'ALL']);
        IF c.legal_name IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'legalName: is required'); END IF;
        IF c.registration_number IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'registrationNumber: is required'); END IF;
        IF c.incorporation_date > today OR c.incorporation_date < DATE '1800-01-01' THEN
            PERFORM corebank_internal.fail('CBV00', 'incorporationDate: must be a past date');
        END IF;
    END IF;

    INSERT INTO corebank.customers AS x (customer_number, type, first_name, middle_name, last_name, date_of_birth,
        gender, national_id, nationality, legal_name, trading_name, registration_number, incorporation_date,
        country_of_incorporation, branch_id, signing_mandate, risk_category, risk_set_at, risk_set_by,
        next_review_date, created_by, updated_by)
    VALUES ('CU' || lpad(nextval('corebank.customer_number_seq')::text, 10, '0'), c.type, c.first_name,
            c.middle_name, c.last_name, c.date_of_birth, c.gender, c.national_id, c.nationality, c.legal_name,
            c.trading_name, c.registration_number, c.incorporation_date, c.country_of_incorporation, c.branch_id,
            c.signing_mandate, c.risk_category, now(), actor,
            (today + make_interval(months => corebank_internal.review_months(c.risk_category)))::date, actor, actor)
    ON CONFLICT DO NOTHING
    RETURNING x.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', CASE WHEN kind = 'INDIVIDUAL'
                                                     THEN 'A customer with this national id already exists'
                                                     ELSE 'A customer with this registration number already exists' END);
    END IF;

    profile := coalesce(request -> 'profile', '{}'::jsonb);
    IF jsonb_typeof(profile) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'profile: must be an object');
    END IF;
    IF request ? 'email' THEN profile := profile || jsonb_build_object('email', request -> 'email'); END IF;
    IF request ? 'phone' THEN profile := profile || jsonb_build_object('phone', request -> 'phone'); END IF;
    PERFORM corebank_internal.customer_profile_apply(new_id, profile, actor);
    RETURN corebank_internal.customer_json(new_id);
END
$fn$;
