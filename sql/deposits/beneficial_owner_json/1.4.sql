CREATE FUNCTION corebank_internal.beneficial_owner_json(o corebank.beneficial_owners) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', o.id, 'customerId', o.customer_id, 'ownerCustomerId', o.owner_customer_id,
                              'fullName', o.full_name, 'dateOfBirth', o.date_of_birth, 'nationality', o.nationality,
                              'nationalId', o.national_id, 'ownershipBp', o.ownership_bp,
                              'ownershipPercent', corebank_internal.amount_text(o.ownership_bp::bigint, 2::smallint),
                              'hasControl', o.has_control, 'active', o.active,
                              'createdAt', corebank_internal.iso_utc(o.created_at), 'createdBy', o.created_by,
                              'removedAt', corebank_internal.iso_utc(o.removed_at), 'removedBy', o.removed_by)
$fn$;
