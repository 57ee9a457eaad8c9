-- Audiences a client may be given: at most 20 values, each a client id
-- (an aud of a user token is the client id it was issued for).
CREATE FUNCTION corebank_internal.auth_client_admin_check_audiences(audiences text[]) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
BEGIN
    IF audiences IS NOT NULL AND (cardinality(audiences) > 20 OR array_ndims(audiences) > 1
       OR EXISTS (SELECT FROM unnest(audiences) AS a WHERE a IS NULL OR a !~ '^[A-Za-z0-9._-]{1,100}$')) THEN
        PERFORM corebank_internal.fail('CBV00', 'audiences: must be at most 20 ids of 1 to 100 of A-Z a-z 0-9 . _ -');
    END IF;
END
$fn$;
