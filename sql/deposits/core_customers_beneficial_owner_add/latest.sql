-- {ownerCustomerId? | fullName, dateOfBirth?, nationality?, nationalId?,
--  ownershipPercent? | ownershipBp?, hasControl?}
CREATE FUNCTION corebank.core_customers_beneficial_owner_add(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    c corebank.customers;
    owner corebank.customers;
    o corebank.beneficial_owners;
    percent_text text;
    held bigint;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    -- The corporate's row lock serialises additions, so the 100% total holds.
    c := corebank_internal.require_customer(id, true);
    IF c.type <> 'CORPORATE' THEN
        PERFORM corebank_internal.fail('CB422', 'Beneficial owners are recorded for corporate customers only');
    END IF;
    o.owner_customer_id := corebank_internal.json_uuid(request, 'ownerCustomerId');
    o.full_name := corebank_internal.json_trimmed(request, 'fullName', 200);
    o.date_of_birth := corebank_internal.json_date(request, 'dateOfBirth');
    o.nationality := corebank_internal.json_country(request, 'nationality');
    o.national_id := upper(corebank_internal.json_trimmed(request, 'nationalId', 50));
    o.has_control := coalesce(corebank_internal.json_bool(request, 'hasControl'), false);
    o.ownership_bp := corebank_internal.json_int(request, 'ownershipBp', 0, 10000);
    IF jsonb_typeof(request -> 'ownershipPercent') IN ('number', 'string') THEN
        percent_text := request ->> 'ownershipPercent';
        IF percent_text !~ '^[0-9]{1,3}(\.[0-9]{1,2})?$' OR percent_text::numeric > 100 THEN
            PERFORM corebank_internal.fail('CBV00', 'ownershipPercent: must be a percentage from 0 to 100 with at most 2 decimals');
        END IF;
        IF o.ownership_bp IS NOT NULL AND o.ownership_bp <> (percent_text::numeric * 100)::int THEN
            PERFORM corebank_internal.fail('CBV00', 'ownershipPercent: does not match ownershipBp');
        END IF;
        o.ownership_bp := (percent_text::numeric * 100)::int;
    END IF;
    o.ownership_bp := coalesce(o.ownership_bp, 0);
    IF o.owner_customer_id IS NOT NULL THEN
        SELECT * INTO owner FROM corebank.customers x WHERE x.id = o.owner_customer_id;
        IF NOT FOUND THEN
            PERFORM corebank_internal.fail('CB404', 'Owner customer not found');
        END IF;
        IF owner.type <> 'INDIVIDUAL' THEN
            PERFORM corebank_internal.fail('CB422', 'A beneficial owner is an individual');
        END IF;
        o.full_name := coalesce(o.full_name, concat_ws(' ', owner.first_name, owner.middle_name, owner.last_name));
        o.date_of_birth := coalesce(o.date_of_birth, owner.date_of_birth);
        o.nationality := coalesce(o.nationality, owner.nationality);
        o.national_id := coalesce(o.national_id, owner.national_id);
        IF EXISTS (SELECT FROM corebank.beneficial_owners x
                   WHERE x.customer_id = id AND x.owner_customer_id = o.owner_customer_id AND x.active) THEN
            PERFORM corebank_internal.fail('CB409', 'This person is already a beneficial owner of the customer');
        END IF;
    END IF;
    IF o.full_name IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'fullName: is required (or ownerCustomerId)');
    END IF;
    IF o.ownership_bp < 2500 AND NOT o.has_control THEN
        PERFORM corebank_internal.fail('CB422', 'A beneficial owner owns 25% or more, or has control');
    END IF;
    SELECT coalesce(sum(x.ownership_bp), 0) INTO held FROM corebank.beneficial_owners x
    WHERE x.customer_id = id AND x.active;
    IF held + o.ownership_bp > 10000 THEN
        PERFORM corebank_internal.fail('CB422', format('Beneficial ownership would exceed 100%% (%s%% is recorded)',
                                                       corebank_internal.amount_text(held, 2::smallint)));
    END IF;
    INSERT INTO corebank.beneficial_owners AS x (customer_id, owner_customer_id, full_name, date_of_birth, nationality,
                                                 national_id, ownership_bp, has_control, created_by)
    VALUES (id, o.owner_customer_id, o.full_name, o.date_of_birth, o.nationality, o.national_id, o.ownership_bp,
            o.has_control, actor)
    RETURNING x.* INTO o;
    RETURN corebank_internal.beneficial_owner_json(o);
END
$fn$;
