-- Moves an account's status on the business date and records it
-- (account_status_set_on, which takes the row lock and says which lock the
-- caller holds). 1.8: plpgsql, so that it may be created before the
-- function it calls in the release script.
CREATE OR REPLACE FUNCTION corebank_internal.account_status_set(account uuid, to_status text, reason text, actor uuid)
    RETURNS void
    LANGUAGE plpgsql
    AS $fn$
BEGIN
    PERFORM corebank_internal.account_status_set_on(account, to_status, reason, actor,
                                                    corebank_internal.business_today());
END
$fn$;
