CREATE OR REPLACE FUNCTION corebank.core_customers_kyc_reviews_due(as_of date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    due_by date := coalesce(as_of, corebank_internal.business_today());
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object(
                       'customerId', c.id, 'customerNumber', c.customer_number,
                       'displayName', CASE WHEN c.type = 'INDIVIDUAL'
                                           THEN concat_ws(' ', c.first_name, c.middle_name, c.last_name)
                                           ELSE c.legal_name END,
                       'riskCategory', c.risk_category, 'nextReviewDate', c.next_review_date)
                   ORDER BY c.next_review_date, c.customer_number), '[]'::jsonb)
            FROM (SELECT * FROM corebank.customers x
                  WHERE x.next_review_date <= due_by AND x.status = 'ACTIVE' AND corebank.branch_visible(x.branch_id)
                  ORDER BY x.next_review_date, x.customer_number LIMIT 1000) c);
END
$fn$;
