-- An amendment of a journal transaction (post or abandon a pending journal,
-- park its reversal) finds another branch's transaction absent: CB404 with
-- the message of an unknown id. An unknown id passes, for the caller's own
-- lookup to answer as before.
CREATE FUNCTION corebank_internal.transaction_require_visible(transaction_id uuid) RETURNS void
    LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
    AS $fn$
BEGIN
    IF EXISTS (SELECT FROM corebank.transactions t
               WHERE t.id = transaction_require_visible.transaction_id
                 AND NOT corebank_internal.transaction_visible(t.id, t.branch_id)) THEN
        PERFORM corebank_internal.fail('CB404', 'Transaction not found');
    END IF;
END
$fn$;
