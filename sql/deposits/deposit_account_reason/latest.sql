-- The reason of an account lifecycle request (activate, reactivate,
-- unfreeze): the body must be an object (none is {}); the trimmed
-- `reason` member, NULL when absent or blank.
CREATE FUNCTION corebank_internal.deposit_account_reason(request jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT corebank_internal.json_trimmed(corebank_internal.require_object(coalesce(request, '{}'::jsonb)), 'reason', 500)
$fn$;
