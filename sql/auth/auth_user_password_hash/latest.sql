CREATE OR REPLACE FUNCTION corebank.auth_user_password_hash(user_id uuid) RETURNS text
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    current_hash text;
BEGIN
    PERFORM corebank_internal.require_present(user_id, 'user_id');
    SELECT u.password_hash INTO current_hash
    FROM corebank.auth_users u
    WHERE u.id = user_id AND u.status = 'ACTIVE';
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CBU01', 'Account is not active');
    END IF;
    RETURN current_hash;
END
$fn$;
