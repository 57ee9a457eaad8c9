-- The first step of every change that signs a user out everywhere
-- (auth_deactivate, auth_password_change): the user must be ACTIVE, or CBU01.
-- The row is locked as the UPDATE that follows locks it (FOR NO KEY UPDATE),
-- so no session is created or refreshed while the others are revoked.
CREATE FUNCTION corebank_internal.auth_user_lock_active(user_id uuid) RETURNS void
    LANGUAGE plpgsql
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM FROM corebank.auth_users u WHERE u.id = user_id AND u.status = 'ACTIVE' FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CBU01', 'Account is not active');
    END IF;
END
$fn$;
