-- Reprint on loss: the live book becomes LOST and a replacement starts where
-- the lost book started, nothing printed, so every line prints again. 1.8:
-- its first mark (corebank.passbook_marks) copies the lost book's opening.
CREATE OR REPLACE FUNCTION corebank.core_passbook_reprint(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.passbooks;
    new_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    b := corebank_internal.passbook_lock_live(id, 'Only the live passbook can be reprinted (this one is %s)');
    UPDATE corebank.passbooks x
    SET status = 'LOST', lost_at = now(), lost_by = actor,
        lost_reason = coalesce(corebank_internal.json_trimmed(request, 'reason', 500), 'lost')
    WHERE x.id = id;
    INSERT INTO corebank.passbooks AS x (account_id, book_number, replaces_id, starts_after_entry_id, issued_by)
    VALUES (b.account_id, (SELECT max(y.book_number) + 1 FROM corebank.passbooks y WHERE y.account_id = b.account_id),
            b.id, b.starts_after_entry_id, actor)
    RETURNING x.id INTO new_id;
    INSERT INTO corebank.passbook_marks (passbook_id, through_entry_id, line_count, balance_minor, marked_by)
    SELECT new_id, b.starts_after_entry_id, 0, m.opening_balance_minor, actor FROM corebank_internal.passbook_mark(b) m;
    RETURN corebank_internal.passbook_json(new_id);
END
$fn$;
