-- The value the next call of next_number('TRANSACTION') returns.
CREATE FUNCTION corebank_internal.transaction_number_peek() RETURNS bigint
    LANGUAGE sql VOLATILE
    AS $fn$
    SELECT CASE WHEN s.is_called THEN s.last_value + 1 ELSE s.last_value END FROM corebank.transaction_numbers s
$fn$;
