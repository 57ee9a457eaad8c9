-- Trigger function on auth_users (before insert without a username): a
-- user's username is its email, else its phone, else its id, the first that
-- fits the username rule (^[a-z0-9._@+-]{3,254}$) and is not taken (a staff
-- member may have been given another's email as a username before that
-- email registered): registration never fails on the username.
CREATE FUNCTION corebank_internal.staff_identity_username_default() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    candidate text;
BEGIN
    FOREACH candidate IN ARRAY ARRAY[NEW.email, NEW.phone] LOOP
        IF candidate ~ '^[a-z0-9._@+-]{3,254}$'
           AND NOT EXISTS (SELECT FROM corebank.auth_users u WHERE u.username = candidate) THEN
            NEW.username := candidate;
            RETURN NEW;
        END IF;
    END LOOP;
    NEW.username := NEW.id::text;
    RETURN NEW;
END
$fn$;
