-- Moves everything of `loser` (and of the customers merged into it) to
-- `winner` and records the merge: identifiers, events (re-pointed, never
-- copied), consents (per purpose the newest occurredAt wins; on a tie the
-- winner's stays), loyalty members; the best-known name survives and the
-- survivor is a guest only if both were. The decision is ingest's (C++),
-- which holds both customer rows locked. Returns the survivor's facts.
CREATE FUNCTION corebank_internal.events_merge(loser uuid, winner uuid, claimed_kind text, claimed_value text,
                                               event_row_id bigint)
    RETURNS TABLE (display_name text, is_guest bool)
    LANGUAGE plpgsql
    AS $fn$
#variable_conflict use_variable
DECLARE
    members uuid[] := corebank_internal.events_members(loser);
BEGIN
    IF loser IS NULL OR winner IS NULL OR loser = winner OR winner = ANY (members) THEN
        RAISE EXCEPTION 'events_merge: invalid pair' USING ERRCODE = 'internal_error';
    END IF;
    UPDATE corebank.customer_identifiers i SET customer_id = winner WHERE i.customer_id = ANY (members);
    UPDATE corebank.events e SET customer_id = winner WHERE e.customer_id = ANY (members);
    INSERT INTO corebank.consents AS k (customer_id, purpose, status, occurred_at, event_row_id, updated_at)
    SELECT DISTINCT ON (x.purpose) winner, x.purpose, x.status, x.occurred_at, x.event_row_id, x.updated_at
    FROM corebank.consents x
    WHERE x.customer_id = ANY (members)
    ORDER BY x.purpose, x.occurred_at DESC, x.updated_at DESC
    ON CONFLICT ON CONSTRAINT consents_pkey DO UPDATE
    SET status = excluded.status, occurred_at = excluded.occurred_at, event_row_id = excluded.event_row_id,
        updated_at = now()
    WHERE k.occurred_at < excluded.occurred_at;
    DELETE FROM corebank.consents k WHERE k.customer_id = ANY (members);
    UPDATE corebank.loyalty_members l SET customer_id = winner WHERE l.customer_id = ANY (members);
    UPDATE corebank.customers_graph c SET merged_into = winner, updated_at = now() WHERE c.id = ANY (members);
    INSERT INTO corebank.customer_merges (from_customer, into_customer, reason, claimed_kind, claimed_value,
                                          event_row_id)
    VALUES (loser, winner, 'identity.claimed', claimed_kind, claimed_value, event_row_id);
    RETURN QUERY
    UPDATE corebank.customers_graph w
    SET display_name = coalesce(w.display_name, l.display_name), is_guest = w.is_guest AND l.is_guest,
        updated_at = now()
    FROM corebank.customers_graph l
    WHERE w.id = winner AND l.id = loser
    RETURNING w.display_name, w.is_guest;
END
$fn$;
