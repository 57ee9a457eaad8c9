-- {riskCategory, reason?}: the next review is rescheduled from the last
-- review (or today) by the category's interval; PROHIBITED has none.
CREATE OR REPLACE FUNCTION corebank.core_customers_kyc_risk_set(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    c corebank.customers;
    risk text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    risk := corebank_internal.json_enum_required(request, 'riskCategory', ARRAY['LOW', 'MEDIUM', 'HIGH', 'PROHIBITED']);
    c := corebank_internal.require_customer(id, true);
    UPDATE corebank.customers x
    SET risk_category = risk, risk_reason = corebank_internal.json_trimmed(request, 'reason', 500),
        risk_set_at = now(), risk_set_by = actor,
        next_review_date = (coalesce(x.last_reviewed_at::date, corebank_internal.business_today())
                            + make_interval(months => corebank_internal.review_months(risk)))::date,
        updated_at = now(), updated_by = actor
    WHERE x.id = id;
    RETURN corebank_internal.kyc_profile_json(id);
END
$fn$;
