CREATE OR REPLACE FUNCTION corebank_internal.money_transfer(request jsonb, actor uuid, customer_initiated bool) RETURNS uuid
    LANGUAGE sql
    AS $fn$ SELECT (corebank_internal.money_post('transfer', request, actor, customer_initiated) ->> 'id')::uuid $fn$;
