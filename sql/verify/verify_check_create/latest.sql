-- A single check (docs/verification.md, "Single checks"): stores the
-- provider's result for images the caller captured itself, under the
-- Idempotency-Key rules of the session writes. C++ in
-- extension/entry/verify_checks.cpp.
CREATE FUNCTION corebank.verify_check_create(api_key_id uuid, idempotency_key text, request_hash bytea, check_id uuid,
                                             type text, reference text, images jsonb, provider text, results jsonb,
                                             consent_granted bool, consent_version text, consent_text_sha256 bytea,
                                             consent_ip text, consent_user_agent text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_check_create'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
