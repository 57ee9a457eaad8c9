-- Each corebankd process counts its keys' requests locally and flushes them
-- here at most once a second, all keys in ONE call (docs/design/hot-path.md):
-- entry i adds counts[i] requests of key key_ids[i] to the minute that
-- window_starts[i] falls in (on this backend's stripe, pid % 8, like
-- core_api_key_authenticate), stamps last_used_at of the keys that were used
-- (at most once a minute per key), and answers the global count of each
-- (key, minute) after the flush, as a jsonb array in the order of the input.
-- A count of 0 only reads the total back. No request of a key waits on this.
-- Announces the expired keys among them (below).
CREATE FUNCTION corebank.core_api_key_usage_flush(key_ids uuid[], window_starts timestamptz[], counts int[])
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    entries_max CONSTANT int := 10000;
    stripes CONSTANT int := 8;
    my_stripe smallint := (pg_backend_pid() % stripes)::smallint;
    n int := coalesce(cardinality(core_api_key_usage_flush.key_ids), 0);
    totals jsonb;
BEGIN
    IF n > entries_max OR n <> coalesce(cardinality(core_api_key_usage_flush.window_starts), 0)
       OR n <> coalesce(cardinality(core_api_key_usage_flush.counts), 0) THEN
        PERFORM corebank_internal.fail('CBV00', 'key_ids, window_starts, counts: are arrays of one length, at most '
                                                || entries_max);
    END IF;
    IF array_position(core_api_key_usage_flush.key_ids, NULL) IS NOT NULL
       OR array_position(core_api_key_usage_flush.window_starts, NULL) IS NOT NULL
       OR EXISTS (SELECT FROM unnest(core_api_key_usage_flush.counts) c WHERE c IS NULL OR c < 0) THEN
        PERFORM corebank_internal.fail('CBV00', 'key_ids, window_starts, counts: no NULL and no negative count');
    END IF;
    -- Sorted, so that two processes flushing the same keys lock the rows in one order.
    INSERT INTO corebank.api_key_rate_counters AS c (api_key_id, window_start, stripe, hits)
    SELECT b.id, date_trunc('minute', b.window_at), my_stripe, least(sum(b.n), 2147483646)::int
    FROM unnest(core_api_key_usage_flush.key_ids, core_api_key_usage_flush.window_starts,
                core_api_key_usage_flush.counts) AS b(id, window_at, n)
    WHERE b.n > 0
    GROUP BY 1, 2
    ORDER BY 1, 2
    ON CONFLICT (api_key_id, window_start, stripe)
        DO UPDATE SET hits = least(c.hits::bigint + excluded.hits, 2147483646)::int;
    UPDATE corebank.api_keys a SET last_used_at = now()
    WHERE a.id IN (SELECT b.id FROM unnest(core_api_key_usage_flush.key_ids, core_api_key_usage_flush.counts)
                                     AS b(id, n) WHERE b.n > 0)
      AND (a.last_used_at IS NULL OR a.last_used_at < now() - interval '1 minute');
    -- A key this process used whose expiry has passed was accepted from a
    -- cached answer (an expiry reached by the clock is no row change, so no
    -- trigger announced it): announce it now, so that every process drops it
    -- within a flush interval of its expiresAt instead of a cache lifetime.
    PERFORM pg_notify('corebank_hot_path', 'api_key:' || a.id::text)
    FROM corebank.api_keys a
    WHERE a.id = ANY (core_api_key_usage_flush.key_ids) AND a.status = 'ACTIVE' AND a.expires_at <= now();
    SELECT coalesce(jsonb_agg(coalesce((SELECT sum(c.hits) FROM corebank.api_key_rate_counters c
                                        WHERE c.api_key_id = b.id
                                          AND c.window_start = date_trunc('minute', b.window_at)), 0)
                              ORDER BY b.i), '[]'::jsonb)
    INTO totals
    FROM unnest(core_api_key_usage_flush.key_ids, core_api_key_usage_flush.window_starts)
         WITH ORDINALITY AS b(id, window_at, i);
    RETURN totals;
END
$fn$;
