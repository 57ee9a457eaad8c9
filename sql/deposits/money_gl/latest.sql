DROP FUNCTION corebank_internal.money_gl(text, text, text, text);
