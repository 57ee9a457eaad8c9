-- The second half: compares the tier's proof (the raw 32-byte argon2id
-- output of the secret under begin's parameters and salt) with the stored
-- hash in constant time; a wrong secret is counted per client id (known or
-- not) and the 5th consecutive one locks the id for 30 minutes; a right one
-- resets the count. Answers {"outcome":"ok"|"invalid"|"locked"}.
CREATE FUNCTION corebank.auth_client_auth_finish(client_id text, secret_proof bytea) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_client_auth_finish'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
