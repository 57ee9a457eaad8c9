-- Why this server cannot seal or open the database's secrets (signing keys),
-- or NULL when its root key loads: corebank.root_key_file unset, the file
-- missing, not 0600, not owned by the server's OS user, inside the data
-- directory, or not 32 bytes (extension/pg/root_key.cpp). For ./corebank
-- status and health checks: it never returns the key or any part of it.
CREATE FUNCTION corebank_internal.auth_root_key_problem() RETURNS text
    AS 'MODULE_PATHNAME', 'auth_root_key_problem' LANGUAGE C VOLATILE;
