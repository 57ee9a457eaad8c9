-- Parks the reversal of a POSTED transaction; approval posts the mirror
-- entries with value date = business today and marks the original REVERSED.
CREATE FUNCTION corebank.core_transaction_reverse_request(id uuid, reason text, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    summary text;
BEGIN
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    PERFORM corebank_internal.require_actor(actor);
    IF length(reason) > 1000 THEN
        PERFORM corebank_internal.fail('CBV00', 'reason: must be at most 1000 characters');
    END IF;
    SELECT format('Reverse %s transaction %s', t.type, t.reference) INTO summary
    FROM corebank.transactions t WHERE t.id = id;
    RETURN corebank.parked_change_create('transaction.reverse', 'transaction', id::text,
                                         jsonb_build_object('reason', nullif(btrim(reason), '')),
                                         coalesce(summary, 'Reverse a transaction'), actor);
END
$fn$;
