-- The money fields of the type registry (core/events_registry.cpp), for the
-- trait engine: a trait only ever adds up these stored strings.
CREATE FUNCTION corebank_internal.events_money_fields() RETURNS TABLE (type text, field text)
    LANGUAGE sql IMMUTABLE
    AS $fn$
    VALUES ('order.created', 'total'), ('order.paid', 'subtotal'), ('order.paid', 'total'),
           ('payment.completed', 'amount'), ('billpay.initiated', 'amount'), ('billpay.initiated', 'total'),
           ('billpay.completed', 'amount'), ('billpay.completed', 'total'), ('loan.applied', 'amountRequested'),
           ('loan.disbursed', 'amount'), ('loan.repayment', 'amount')
$fn$;
