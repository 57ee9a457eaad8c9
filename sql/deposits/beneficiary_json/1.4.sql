CREATE FUNCTION corebank_internal.beneficiary_json(x corebank.beneficiaries) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', x.id, 'customerId', x.customer_id, 'name', x.name,
                              'accountNumber', x.account_number, 'bankSwiftCode', x.bank_swift_code,
                              'accountId', x.account_id, 'currency', x.currency, 'nickname', x.nickname,
                              'active', x.active, 'createdAt', corebank_internal.iso_utc(x.created_at),
                              'createdBy', x.created_by, 'removedAt', corebank_internal.iso_utc(x.removed_at))
$fn$;
