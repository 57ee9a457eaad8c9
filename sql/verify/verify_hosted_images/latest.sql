-- The sealed images of a session being processed, for the tier's checks;
-- nothing is returned unless the session is processing and the token matches.
CREATE FUNCTION corebank.verify_hosted_images(session_id uuid, client_token_hash bytea)
    RETURNS TABLE (kind text, format text, image_sealed bytea)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_column
BEGIN
    IF verify_hosted_images.session_id IS NULL OR verify_hosted_images.client_token_hash IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'session_id, client_token_hash: are required');
    END IF;
    RETURN QUERY
    SELECT x.kind, x.format, x.image_sealed
    FROM corebank.verify_sessions s
    JOIN corebank.verify_captures x ON x.session_id = s.id
    WHERE s.id = verify_hosted_images.session_id
      AND s.client_token_hash = verify_hosted_images.client_token_hash
      AND s.status = 'processing' AND x.image_sealed IS NOT NULL
    ORDER BY x.kind DESC;
END
$fn$;
