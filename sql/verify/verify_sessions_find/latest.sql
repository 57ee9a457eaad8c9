-- Newest first; every filter optional; at most 100 rows. created_before is the
-- createdAt of the last row of the previous page (keyset paging).
CREATE FUNCTION corebank.verify_sessions_find(reference text, subject_lookup bytea, status text,
                                              created_before timestamptz, max_rows int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rows_max CONSTANT int := 100;
    batch int := coalesce(max_rows, 20);
    found jsonb;
BEGIN
    IF batch < 1 OR batch > rows_max THEN
        PERFORM corebank_internal.fail('CBV00', format('limit: must be between 1 and %s', rows_max));
    END IF;
    IF status IS NOT NULL AND status NOT IN ('pending', 'processing', 'completed', 'cancelled', 'expired') THEN
        PERFORM corebank_internal.fail('CBV00', 'status: must be one of pending, processing, completed, cancelled, expired');
    END IF;
    IF subject_lookup IS NOT NULL AND length(subject_lookup) <> 32 THEN
        PERFORM corebank_internal.fail('CBV00', 'subject_lookup: must be 32 bytes');
    END IF;
    SELECT coalesce(jsonb_agg(corebank_internal.verify_session_json(x.id) ORDER BY x.created_at DESC, x.id DESC), '[]'::jsonb)
    INTO found
    FROM (SELECT s.id, s.created_at
          FROM corebank.verify_sessions s
          WHERE (reference IS NULL OR s.reference = reference)
            AND (subject_lookup IS NULL OR s.subject_lookup = subject_lookup)
            AND (status IS NULL OR corebank_internal.verify_effective_status(s.status, s.expires_at) = status)
            AND (created_before IS NULL OR s.created_at < created_before)
          ORDER BY s.created_at DESC, s.id DESC
          LIMIT batch) x;
    RETURN jsonb_build_object('data', found, 'limit', batch);
END
$fn$;
