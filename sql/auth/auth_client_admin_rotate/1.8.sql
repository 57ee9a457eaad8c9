-- The second half: the new secret's hash (same parameters and salt as the
-- current one, a different secret) becomes the secret; the current one
-- keeps authenticating for overlap_seconds (0 to 604800: 0 ends it at
-- once, for a leaked secret) and is then refused. A rotation during an
-- overlap ends the older secret at once: at most two are ever valid.
CREATE FUNCTION corebank.auth_client_admin_rotate(actor_user_id uuid, actor_session_id uuid, client_id text,
                                                  secret_hash text, overlap_seconds int)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    current_hash text;
    after corebank.auth_oauth_clients;
BEGIN
    PERFORM corebank_internal.auth_client_admin_actor(actor_user_id, actor_session_id, ARRAY['admin']);
    IF overlap_seconds IS NULL OR overlap_seconds NOT BETWEEN 0 AND 604800 THEN
        PERFORM corebank_internal.fail('CBV00', 'overlapSeconds: must be 0 to 604800 (7 days)');
    END IF;
    PERFORM corebank_internal.auth_require_argon2id(secret_hash, 'secret_hash');
    SELECT c.secret_hash INTO current_hash FROM corebank.auth_oauth_clients c WHERE c.client_id = client_id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'No OAuth client has this id');
    END IF;
    IF split_part(secret_hash, '$', 4) <> split_part(current_hash, '$', 4)
       OR split_part(secret_hash, '$', 5) <> split_part(current_hash, '$', 5)
       OR split_part(secret_hash, '$', 3) <> split_part(current_hash, '$', 3) THEN
        PERFORM corebank_internal.fail('CBV00', 'secret_hash: must use the current hash''s parameters and salt');
    END IF;
    IF secret_hash = current_hash THEN
        PERFORM corebank_internal.fail('CBV00', 'secret_hash: must be a new secret');
    END IF;
    UPDATE corebank.auth_oauth_clients c
    SET previous_secret_hash = CASE WHEN overlap_seconds > 0 THEN current_hash END,
        previous_secret_expires_at = CASE WHEN overlap_seconds > 0 THEN now() + make_interval(secs => overlap_seconds) END,
        secret_hash = secret_hash, secret_rotated_at = now(), updated_at = now()
    WHERE c.client_id = client_id RETURNING * INTO after;
    PERFORM corebank_internal.audit(actor_user_id, 'client_secret_rotated',
        jsonb_build_object('clientId', client_id, 'overlapSeconds', overlap_seconds));
    RETURN corebank_internal.auth_client_admin_json(after);
END
$fn$;
