-- PUT /v1/customers/{id}/identity-user {userId}: parks
-- customer.identity_user.link; a second person approves it at /v1/approvals.
CREATE FUNCTION corebank.core_customers_kyc_identity_link_request(customer_id uuid, request jsonb, actor uuid)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    linked uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    IF customer_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    linked := corebank_internal.json_uuid(request, 'userId');
    IF linked IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'userId: is required');
    END IF;
    -- A customer of another branch is unknown to a branch-scoped member (the
    -- message kyc_identity_link_validate gives an unknown id).
    PERFORM corebank_internal.require_customer(customer_id);
    RETURN corebank.parked_change_create('customer.identity_user.link', 'customer', customer_id::text,
                                         jsonb_build_object('userId', linked),
                                         format('Link customer %s to identity user %s',
                                                (SELECT c.customer_number FROM corebank.customers c
                                                 WHERE c.id = customer_id), linked), actor);
END
$fn$;
