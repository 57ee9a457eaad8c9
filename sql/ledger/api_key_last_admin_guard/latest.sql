-- Refuses (CB422) a move that would leave the institution without a core
-- admin-scope key: key `id` stops being valid at `stops_at` (now() for a
-- revocation, the new expiry for a shortened one), and no other active core
-- admin key outlives that moment. Every active core admin key is locked
-- first (in id order, so two callers never deadlock): of two concurrent
-- revocations of the last two keys, the second waits, re-reads the first's
-- committed row and is refused. A key that is not a valid core admin key
-- (another service, no admin scope, already revoked or expired) passes.
CREATE FUNCTION corebank_internal.api_key_last_admin_guard(id uuid, stops_at timestamptz) RETURNS void
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    others int;
BEGIN
    IF NOT EXISTS (SELECT FROM corebank.api_keys k
                   WHERE k.id = id AND k.service = 'core' AND 'admin' = ANY (k.scopes)
                     AND k.status = 'ACTIVE' AND (k.expires_at IS NULL OR k.expires_at > now())) THEN
        RETURN;
    END IF;
    PERFORM FROM corebank.api_keys k
    WHERE k.service = 'core' AND k.status = 'ACTIVE' AND 'admin' = ANY (k.scopes)
    ORDER BY k.id FOR UPDATE;
    SELECT count(*) INTO others FROM corebank.api_keys k
    WHERE k.service = 'core' AND k.status = 'ACTIVE' AND 'admin' = ANY (k.scopes) AND k.id <> id
      AND (k.expires_at IS NULL OR k.expires_at > greatest(stops_at, now()));
    IF others = 0 THEN
        PERFORM corebank_internal.fail('CB422',
            'This is the last active admin-scope key: create or rotate another admin key first');
    END IF;
END
$fn$;
