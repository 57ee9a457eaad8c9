-- 1.8: a customer of another branch is as unknown as one that does not exist
-- when the transaction is branch-scoped (docs/core-banking.md "Branch scoping").
-- No posting path uses this helper: postings are never scoped.
CREATE OR REPLACE FUNCTION corebank_internal.require_customer(customer uuid, lock bool DEFAULT false) RETURNS corebank.customers
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    c corebank.customers;
BEGIN
    IF customer IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    IF lock THEN
        SELECT * INTO c FROM corebank.customers x WHERE x.id = customer AND corebank.branch_visible(x.branch_id)
        FOR UPDATE;
    ELSE
        SELECT * INTO c FROM corebank.customers x WHERE x.id = customer AND corebank.branch_visible(x.branch_id);
    END IF;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Customer not found');
    END IF;
    RETURN c;
END
$fn$;
