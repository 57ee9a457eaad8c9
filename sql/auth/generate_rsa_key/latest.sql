-- A fresh RSA-2048 key pair; not stored.
CREATE FUNCTION corebank_internal.generate_rsa_key(OUT kid text, OUT public_jwk jsonb, OUT private_key_pem text)
    RETURNS record
    AS 'MODULE_PATHNAME', 'generate_rsa_key'
    LANGUAGE C VOLATILE;
