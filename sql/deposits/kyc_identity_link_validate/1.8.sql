-- customer.identity_user.link, {userId}: an INDIVIDUAL customer with no
-- identity user yet, and a customer-role identity user linked to no other
-- customer. Checked when parked and again when approved.
CREATE FUNCTION corebank_internal.kyc_identity_link_validate(entity_id text, payload jsonb) RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    c corebank.customers;
    linked uuid := (payload ->> 'userId')::uuid;
BEGIN
    SELECT * INTO c FROM corebank.customers x WHERE x.id = entity_id::uuid;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Customer not found');
    END IF;
    IF c.type <> 'INDIVIDUAL' THEN
        PERFORM corebank_internal.fail('CB422', 'Only an INDIVIDUAL customer is linked to an identity user');
    END IF;
    IF c.auth_user_id IS NOT NULL THEN
        PERFORM corebank_internal.fail('CB409', 'The customer is already linked to an identity user');
    END IF;
    IF NOT EXISTS (SELECT FROM corebank.auth_users u WHERE u.id = linked AND 'customer' = ANY (u.roles)) THEN
        PERFORM corebank_internal.fail('CB404', 'Identity user not found');
    END IF;
    IF EXISTS (SELECT FROM corebank.customers x WHERE x.auth_user_id = linked) THEN
        PERFORM corebank_internal.fail('CB409', 'The identity user is already linked to another customer');
    END IF;
END
$fn$;
