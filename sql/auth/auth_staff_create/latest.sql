CREATE OR REPLACE FUNCTION corebank.auth_staff_create(email text, phone text, password_hash text, first_name text,
                                                      last_name text, roles text[], branch_code text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    normalized_email text := corebank_internal.normalize_email(nullif(btrim(email), ''));
    clean_phone text := nullif(btrim(phone), '');
    unknown_role text;
    new_id uuid;
BEGIN
    IF normalized_email IS NULL AND clean_phone IS NULL THEN
        PERFORM corebank_internal.fail('CB400', 'Either an email or a phone number is required');
    END IF;
    IF length(normalized_email) > 254 OR position('@' IN normalized_email) = 0 THEN
        PERFORM corebank_internal.fail('CBV00', 'email: must be a well-formed email address of at most 254 characters');
    END IF;
    IF clean_phone !~ '^\+?[0-9]{10,15}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'phone: must match ^\+?[0-9]{10,15}$');
    END IF;
    PERFORM corebank_internal.auth_require_argon2id(password_hash, 'password_hash');
    IF length(first_name) > 100 OR length(last_name) > 100 THEN
        PERFORM corebank_internal.fail('CBV00', 'firstName, lastName: must be at most 100 characters');
    END IF;
    IF roles IS NULL OR cardinality(roles) = 0 THEN
        PERFORM corebank_internal.fail('CBV00', 'roles: is required');
    END IF;
    IF cardinality(roles) > 32 OR array_ndims(roles) > 1 OR array_position(roles, NULL) IS NOT NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'roles: must be at most 32 role names');
    END IF;
    SELECT x.role INTO unknown_role
    FROM unnest(roles) WITH ORDINALITY AS x(role, position)
    WHERE NOT EXISTS (SELECT FROM corebank.auth_role_scopes r WHERE r.role = x.role)
    ORDER BY x.position
    LIMIT 1;
    IF FOUND THEN
        PERFORM corebank_internal.fail('CBV00', format('roles: unknown role %L', unknown_role));
    END IF;
    IF branch_code IS NOT NULL AND length(branch_code) NOT BETWEEN 1 AND 20 THEN
        PERFORM corebank_internal.fail('CBV00', 'branch_code: must be 1 to 20 characters');
    END IF;

    INSERT INTO corebank.auth_users AS u (email, phone, password_hash, first_name, last_name, roles, branch_code)
    VALUES (normalized_email, clean_phone, password_hash, first_name, last_name,
            ARRAY(SELECT DISTINCT x.role FROM unnest(roles) AS x(role) ORDER BY 1), branch_code)
    ON CONFLICT DO NOTHING
    RETURNING u.id INTO new_id;
    IF new_id IS NULL THEN
        IF EXISTS (SELECT FROM corebank.auth_users u WHERE u.email = normalized_email) THEN
            PERFORM corebank_internal.fail('CB409', 'An account with this email already exists; log in with that email');
        END IF;
        PERFORM corebank_internal.fail('CB409', 'An account with this phone number already exists; log in with that phone number');
    END IF;
    PERFORM corebank_internal.audit(new_id, 'register', jsonb_build_object('staff', true, 'roles', to_jsonb(roles)));
    RETURN new_id;
END
$fn$;
