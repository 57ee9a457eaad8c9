CREATE FUNCTION corebank_internal.account_balance_as_of(account uuid, as_of date) RETURNS bigint
    LANGUAGE sql STABLE
    AS $fn$
    SELECT coalesce(sum(x.signed_minor), 0)::bigint FROM corebank_internal.account_entries(account) x
    WHERE x.value_date <= as_of
$fn$;
