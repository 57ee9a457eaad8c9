CREATE OR REPLACE FUNCTION corebank_internal.money_withdraw(request jsonb, actor uuid) RETURNS uuid
    LANGUAGE sql
    AS $fn$ SELECT (corebank_internal.money_withdraw_posting(request, actor) ->> 'id')::uuid $fn$;
