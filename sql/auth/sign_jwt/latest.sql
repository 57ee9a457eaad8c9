-- Signs a claims object with the active RS256 key (creating one if none).
CREATE FUNCTION corebank_internal.sign_jwt(claims jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'sign_jwt'
    LANGUAGE C VOLATILE;
