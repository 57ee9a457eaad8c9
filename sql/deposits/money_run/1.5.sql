-- The idempotent shell of the four money functions: a key is claimed before
-- any work, so a repeat returns the first response and posts nothing.
CREATE OR REPLACE FUNCTION corebank_internal.money_run(operation text, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    key text;
    replay jsonb;
    posted jsonb;
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
    posted := CASE operation
                  WHEN 'deposit' THEN corebank_internal.money_deposit_posting(request, actor, true)
                  WHEN 'withdrawal' THEN corebank_internal.money_withdraw_posting(request, actor)
                  WHEN 'transfer' THEN corebank_internal.money_transfer_posting(request, actor, true)
                  WHEN 'fee' THEN corebank_internal.money_fee_posting(request, actor)
              END;
    IF key IS NOT NULL THEN
        RETURN corebank_internal.money_idempotency_store(key, (posted ->> 'id')::uuid, posted);
    END IF;
    RETURN posted;
END
$fn$;
