-- The account other than user_id that holds an email or phone now, or NULL:
-- a phone is the same number with or without its '+' (the phone_key rule of
-- auth_users), an email is compared normalised (docs/identity.md, "The
-- current user and contact claims").
CREATE FUNCTION corebank_internal.auth_contact_value_owner(user_id uuid, kind text, value text) RETURNS uuid
    LANGUAGE sql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT u.id FROM corebank.auth_users u
    WHERE u.id <> auth_contact_value_owner.user_id
      AND CASE auth_contact_value_owner.kind
              WHEN 'email' THEN u.email = auth_contact_value_owner.value
              ELSE u.phone_key = regexp_replace(auth_contact_value_owner.value, '[^0-9]', '', 'g') END
    LIMIT 1
$fn$;
