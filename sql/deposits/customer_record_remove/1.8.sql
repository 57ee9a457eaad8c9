-- Removes one of a customer's active records (a beneficiary, a beneficial
-- owner): the row stays, marked inactive and stamped with who and when. CB404
-- `not_found` when the customer has no such active record. Returns the row
-- as it is now, as jsonb (jsonb_populate_record gives it its type back). 1.8:
-- a customer of another branch has none while the transaction is branch-scoped.
CREATE OR REPLACE FUNCTION corebank_internal.customer_record_remove(records regclass, record_id uuid, customer uuid, actor uuid,
                                                         not_found text) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    removed jsonb;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    EXECUTE format('UPDATE %s x SET active = false, removed_at = now(), removed_by = $1
                    WHERE x.id = $2 AND x.customer_id = $3 AND x.active
                      AND EXISTS (SELECT FROM corebank.customers c
                                  WHERE c.id = $3 AND corebank.branch_visible(c.branch_id))
                    RETURNING to_jsonb(x)', records)
    INTO removed USING actor, record_id, customer;
    IF removed IS NULL THEN
        PERFORM corebank_internal.fail('CB404', not_found);
    END IF;
    RETURN removed;
END
$fn$;
