CREATE FUNCTION corebank_internal.gl_id(code text, currency text) RETURNS uuid
    LANGUAGE sql STABLE
    AS $fn$ SELECT g.id FROM corebank.gl_accounts g WHERE g.code = gl_id.code AND g.currency = gl_id.currency $fn$;
