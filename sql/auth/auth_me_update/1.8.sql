-- PATCH /auth/me: a first or last name (or both) applies at once, with the
-- limits of registration (1 to 100 characters, not blank); NULL leaves a
-- name as it is, so a name cannot be cleared here (it is part of BASIC's
-- evidence). Audited as profile_updated with the fields changed.
CREATE FUNCTION corebank.auth_me_update(user_id uuid, first_name text, last_name text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    problems text[] := '{}';
BEGIN
    IF first_name IS NULL AND last_name IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'firstName: or lastName is required');
    END IF;
    IF first_name IS NOT NULL AND (length(first_name) > 100 OR btrim(first_name) = '') THEN
        problems := problems || 'firstName: must be 1 to 100 characters, not blank'::text;
    END IF;
    IF last_name IS NOT NULL AND (length(last_name) > 100 OR btrim(last_name) = '') THEN
        problems := problems || 'lastName: must be 1 to 100 characters, not blank'::text;
    END IF;
    IF cardinality(problems) > 0 THEN
        PERFORM corebank_internal.fail('CBV00', array_to_string(problems, '; '));
    END IF;
    UPDATE corebank.auth_users u
    SET first_name = coalesce(first_name, u.first_name), last_name = coalesce(last_name, u.last_name),
        updated_at = now()
    WHERE u.id = user_id AND u.status = 'ACTIVE';
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'User not found');
    END IF;
    PERFORM corebank_internal.audit(user_id, 'profile_updated', jsonb_build_object('fields',
        to_jsonb(array_remove(ARRAY[CASE WHEN first_name IS NOT NULL THEN 'firstName' END,
                                    CASE WHEN last_name IS NOT NULL THEN 'lastName' END], NULL))));
    RETURN corebank.auth_me(user_id);
END
$fn$;
