DROP FUNCTION corebank_internal.money_header(jsonb, text, uuid, uuid);
