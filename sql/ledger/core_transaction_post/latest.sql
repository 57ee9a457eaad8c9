-- 1.8: a pending journal of another branch is absent to a scoped teller
-- (issue 15, branch scoping); posting it is an amendment of it.
CREATE OR REPLACE FUNCTION corebank.core_transaction_post(id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    PERFORM corebank_internal.transaction_require_visible(core_transaction_post.id);
    RETURN corebank_internal.transaction_post_pending(core_transaction_post.id, core_transaction_post.actor);
END
$fn$;
