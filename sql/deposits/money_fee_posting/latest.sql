DROP FUNCTION corebank_internal.money_fee_posting(jsonb, uuid);
