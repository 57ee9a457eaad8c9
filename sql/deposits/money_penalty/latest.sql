DROP FUNCTION corebank_internal.money_penalty(text, date, integer, corebank.amount_minor);
