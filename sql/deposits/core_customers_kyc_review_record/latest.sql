-- {notes?, nextReviewDate?}: a periodic review done now.
CREATE FUNCTION corebank.core_customers_kyc_review_record(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    c corebank.customers;
    today date := corebank_internal.business_today();
    wanted date;
    policy date;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    wanted := corebank_internal.json_date(request, 'nextReviewDate');
    c := corebank_internal.require_customer(id, true);
    policy := (today + make_interval(months => corebank_internal.review_months(c.risk_category)))::date;
    IF wanted IS NOT NULL AND (wanted <= today OR wanted > policy) THEN
        PERFORM corebank_internal.fail('CBV00',
            format('nextReviewDate: must be after today and no later than %s (the %s risk interval)', policy, c.risk_category));
    END IF;
    IF c.risk_category = 'PROHIBITED' AND wanted IS NOT NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'nextReviewDate: a PROHIBITED customer has no periodic review');
    END IF;
    INSERT INTO corebank.kyc_reviews (customer_id, risk_category, notes, next_review_date, reviewed_by)
    VALUES (id, c.risk_category, corebank_internal.json_trimmed(request, 'notes', 2000), coalesce(wanted, policy), actor);
    UPDATE corebank.customers x
    SET last_reviewed_at = now(), last_reviewed_by = actor, next_review_date = coalesce(wanted, policy),
        updated_at = now(), updated_by = actor
    WHERE x.id = id;
    RETURN corebank_internal.kyc_profile_json(id);
END
$fn$;
