-- ./corebank staff create: a staff identity with a password (00-decisions.md
-- fixes --password), through the function POST /v1/staff/identities uses
-- (staff_identity_insert): roles are any of corebank.staff_roles, the branch
-- must exist, the username is the email (or the phone without one).
CREATE OR REPLACE FUNCTION corebank.auth_staff_create(email text, phone text, password_hash text, first_name text,
                                                      last_name text, roles text[], branch_code text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    PERFORM corebank_internal.require_present(password_hash, 'password_hash');
    IF branch_code IS NOT NULL AND length(branch_code) NOT BETWEEN 1 AND 20 THEN
        PERFORM corebank_internal.fail('CBV00', 'branch_code: must be 1 to 20 characters');
    END IF;
    RETURN corebank_internal.staff_identity_insert(NULL, email, phone, password_hash, first_name, last_name, NULL,
                                                   roles, branch_code, NULL);
END
$fn$;
