-- 1.8: a pending journal of another branch is absent to a scoped teller
-- (issue 15, branch scoping); abandoning it is an amendment of it.
CREATE OR REPLACE FUNCTION corebank.core_transaction_abandon(id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    PERFORM corebank_internal.transaction_require_visible(core_transaction_abandon.id);
    RETURN corebank_internal.transaction_abandon_pending(core_transaction_abandon.id, core_transaction_abandon.actor);
END
$fn$;
