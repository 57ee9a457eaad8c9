DROP FUNCTION corebank.auth_user_password_hash(uuid);
