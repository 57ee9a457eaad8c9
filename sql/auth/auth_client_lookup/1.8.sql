DROP FUNCTION corebank.auth_client_lookup(text);
