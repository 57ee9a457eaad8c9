-- The idempotent shell of the four money functions: a key is claimed before
-- any work, so a repeat returns the first response and posts nothing.
CREATE FUNCTION corebank_internal.money_run(operation text, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    key text;
    replay jsonb;
    transaction_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    key := corebank_internal.json_text(request, 'idempotencyKey', 128);
    IF key IS NOT NULL THEN
        replay := corebank_internal.money_idempotency_claim(key, jsonb_build_object('operation', operation,
                                                                                    'request', request));
        IF replay IS NOT NULL THEN
            RETURN replay;
        END IF;
    END IF;
    transaction_id := CASE operation
                          WHEN 'deposit' THEN corebank_internal.money_deposit(request, actor, true)
                          WHEN 'withdrawal' THEN corebank_internal.money_withdraw(request, actor)
                          WHEN 'transfer' THEN corebank_internal.money_transfer(request, actor, true)
                          WHEN 'fee' THEN corebank_internal.money_fee(request, actor)
                      END;
    IF key IS NOT NULL THEN
        RETURN corebank_internal.money_idempotency_complete(key, transaction_id);
    END IF;
    RETURN corebank_internal.transaction_json(transaction_id);
END
$fn$;
