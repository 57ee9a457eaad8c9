CREATE FUNCTION corebank_internal.require_customer(customer uuid, lock bool DEFAULT false) RETURNS corebank.customers
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    c corebank.customers;
BEGIN
    IF customer IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    IF lock THEN
        SELECT * INTO c FROM corebank.customers x WHERE x.id = customer FOR UPDATE;
    ELSE
        SELECT * INTO c FROM corebank.customers x WHERE x.id = customer;
    END IF;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Customer not found');
    END IF;
    RETURN c;
END
$fn$;
