-- The one way a staff identity is made, shared by POST /v1/staff/identities
-- (no password: a set-password link follows) and ./corebank staff create
-- (auth_staff_create, with a password). The username is the email unless
-- given; roles are staff_roles keys; the branch, when given, must exist.
-- Duplicates are CB409 naming the member; audited in staff_audit
-- (user.create, the view as after) and auth_audit (register).
CREATE FUNCTION corebank_internal.staff_identity_insert(username text, email text, phone text, password_hash text,
                                                        first_name text, last_name text, display_name text,
                                                        roles text[], branch_code text, actor uuid) RETURNS uuid
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    normalized_email text := corebank_internal.normalize_email(nullif(btrim(email), ''));
    clean_phone text := nullif(btrim(phone), '');
    clean_username text := nullif(btrim(username), '');
    clean_display text := nullif(btrim(display_name), '');
    clean_roles text[];
    new_id uuid;
BEGIN
    IF normalized_email IS NULL AND clean_phone IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'email: is required');
    END IF;
    IF length(normalized_email) > 254 OR position('@' IN normalized_email) = 0 THEN
        PERFORM corebank_internal.fail('CBV00', 'email: must be a well-formed email address of at most 254 characters');
    END IF;
    IF clean_phone !~ '^\+?[0-9]{10,15}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'phone: must match ^\+?[0-9]{10,15}$');
    END IF;
    IF password_hash IS NOT NULL THEN
        PERFORM corebank_internal.auth_require_argon2id(password_hash, 'password_hash');
    END IF;
    IF length(first_name) > 100 OR length(last_name) > 100 OR length(clean_display) > 100 THEN
        PERFORM corebank_internal.fail('CBV00', 'displayName, firstName, lastName: must be at most 100 characters');
    END IF;
    clean_roles := corebank_internal.staff_identity_roles_check(roles);
    clean_username := coalesce(clean_username, normalized_email, clean_phone);
    IF clean_username !~ '^[a-z0-9._@+-]{3,254}$' THEN
        PERFORM corebank_internal.fail('CBV00', CASE WHEN username IS NULL
            THEN 'username: is required when the email has characters a username may not hold (a-z 0-9 . _ @ + -)'
            ELSE 'username: must be 3 to 254 characters: lower-case letters, digits, . _ @ + -' END);
    END IF;
    IF branch_code IS NOT NULL AND NOT EXISTS (SELECT FROM corebank.branches b WHERE b.code = branch_code) THEN
        PERFORM corebank_internal.fail('CB404', 'branchCode: no branch has this code');
    END IF;

    INSERT INTO corebank.auth_users AS u (username, email, phone, password_hash, first_name, last_name,
                                          display_name, roles, branch_code)
    VALUES (clean_username, normalized_email, clean_phone, password_hash, first_name, last_name, clean_display,
            clean_roles, branch_code)
    ON CONFLICT DO NOTHING
    RETURNING u.id INTO new_id;
    IF new_id IS NULL THEN
        IF EXISTS (SELECT FROM corebank.auth_users u WHERE u.email = normalized_email) THEN
            PERFORM corebank_internal.fail('CB409', 'An account with this email already exists; log in with that email');
        END IF;
        IF EXISTS (SELECT FROM corebank.auth_users u WHERE u.username = clean_username) THEN
            PERFORM corebank_internal.fail('CB409', 'username: another identity has this username');
        END IF;
        PERFORM corebank_internal.fail('CB409', 'An account with this phone number already exists; log in with that phone number');
    END IF;
    PERFORM corebank_internal.audit(new_id, 'register', jsonb_build_object('staff', true, 'roles', to_jsonb(clean_roles)));
    PERFORM corebank_internal.staff_audit_record(actor, 'user.create', new_id::text, NULL,
                                                 corebank_internal.staff_identity_json(new_id));
    RETURN new_id;
END
$fn$;
