-- corebank.staff_mfa_roles as the library defines it (a PL/pgSQL caller
-- alone would find it undefined before the library loads).
CREATE FUNCTION corebank_internal.auth_client_admin_mfa_roles() RETURNS text
    AS 'MODULE_PATHNAME', 'auth_client_admin_mfa_roles'
    LANGUAGE C STABLE
    SET search_path = pg_catalog, pg_temp;
