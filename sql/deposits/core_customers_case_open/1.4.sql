CREATE FUNCTION corebank.core_customers_case_open(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    k corebank.customer_cases;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    PERFORM corebank_internal.require_customer(id);
    k.subject := corebank_internal.json_trimmed(request, 'subject', 200);
    IF k.subject IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'subject: is required');
    END IF;
    INSERT INTO corebank.customer_cases AS x (customer_id, subject, description, category, opened_by)
    VALUES (id, k.subject, corebank_internal.json_trimmed(request, 'description', 4000),
            upper(corebank_internal.json_trimmed(request, 'category', 50)), actor)
    RETURNING x.* INTO k;
    RETURN corebank_internal.case_json(k);
END
$fn$;
