-- {lastEntryId}: the entry of the last line actually printed. Lines after
-- it (postings that landed after printing) stay unprinted. 1.8: the new
-- mark (corebank.passbook_marks) adds the confirmed lines, read between the
-- old mark and the new one only, to the old mark's count and balance.
CREATE OR REPLACE FUNCTION corebank.core_passbook_print_confirm(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.passbooks;
    last_entry bigint;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    last_entry := corebank_internal.json_int(request, 'lastEntryId', 1, 9223372036854775807);
    IF last_entry IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'lastEntryId: is required');
    END IF;
    b := corebank_internal.passbook_lock_live(id, 'The passbook is %s');
    IF last_entry <= b.starts_after_entry_id
       OR NOT EXISTS (SELECT FROM corebank.journal_entries e WHERE e.id = last_entry AND e.ledger_account_id = b.account_id) THEN
        PERFORM corebank_internal.fail('CB422', 'lastEntryId: is not a line of this passbook');
    END IF;
    IF last_entry = b.printed_through_entry_id THEN
        RETURN corebank_internal.passbook_json(id);
    END IF;
    IF last_entry < b.printed_through_entry_id THEN
        PERFORM corebank_internal.fail('CB409', format('Lines up to entry %s are already printed', b.printed_through_entry_id));
    END IF;
    INSERT INTO corebank.passbook_marks (passbook_id, through_entry_id, line_count, balance_minor, marked_by)
    SELECT id, last_entry, m.line_count + c.lines, m.balance_minor + c.net, actor
    FROM corebank_internal.passbook_mark(b) m,
         LATERAL (SELECT count(*) AS lines, coalesce(sum(e.signed_minor), 0)::bigint AS net
                  FROM corebank_internal.account_entries(b.account_id) e
                  WHERE e.entry_id > greatest(b.starts_after_entry_id, coalesce(b.printed_through_entry_id, 0))
                    AND e.entry_id <= last_entry) c;
    UPDATE corebank.passbooks x SET printed_through_entry_id = last_entry WHERE x.id = id;
    RETURN corebank_internal.passbook_json(id);
END
$fn$;
