-- The one email normalisation (trim ASCII whitespace, ASCII lower case), shared
-- with the C++ functions; the auth_users check keeps every stored email in it.
CREATE FUNCTION corebank_internal.normalize_email(email text) RETURNS text
    AS 'MODULE_PATHNAME', 'normalize_email'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
