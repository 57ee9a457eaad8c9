-- The checks before a status move of an account or a standing order, in
-- this order: the id given (CBV00), the thing found (CB404 `not_found`: its
-- current status is NULL) and the move allowed from its current status
-- (CB409 "Cannot <verb> <thing> that is <status>").
CREATE FUNCTION corebank_internal.deposit_status_move_check(id uuid, current_status text, allowed text[], thing text,
                                                            verb text, not_found text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    PERFORM corebank_internal.required_id(id);
    IF current_status IS NULL THEN
        PERFORM corebank_internal.fail('CB404', not_found);
    END IF;
    IF NOT current_status = ANY (allowed) THEN
        PERFORM corebank_internal.fail('CB409', format('Cannot %s %s that is %s', verb, thing, current_status));
    END IF;
END
$fn$;
