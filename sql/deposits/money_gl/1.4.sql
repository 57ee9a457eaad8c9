-- A GL account of a type, by code, in a currency (CB422 when unusable).
CREATE FUNCTION corebank_internal.money_gl(code text, currency text, wanted_type text, field text) RETURNS uuid
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    g corebank.gl_accounts;
BEGIN
    SELECT * INTO g FROM corebank.gl_accounts x WHERE x.code = money_gl.code AND x.currency = money_gl.currency;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', format('%s: GL account %s (%s) not found', field, code, currency));
    END IF;
    IF g.type <> wanted_type OR NOT g.active THEN
        PERFORM corebank_internal.fail('CB422', format('%s: GL account %s (%s) must be an active %s account',
                                                       field, code, currency, wanted_type));
    END IF;
    RETURN g.id;
END
$fn$;
