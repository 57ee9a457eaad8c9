-- 1.8 (issue 15, branch scoping): not found for an account of a branch the
-- transaction cannot see.
CREATE OR REPLACE FUNCTION corebank.core_accounts_status_history(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_deposit_account(id);
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('fromStatus', h.from_status, 'toStatus', h.to_status,
                                                         'reason', h.reason, 'actorId', h.actor_id,
                                                         'at', corebank_internal.iso_utc(h.at)) ORDER BY h.id), '[]'::jsonb)
            FROM corebank.account_status_history h WHERE h.account_id = id);
END
$fn$;
