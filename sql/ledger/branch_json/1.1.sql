CREATE FUNCTION corebank_internal.branch_json(branch_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', b.id, 'code', b.code, 'name', b.name, 'city', b.city, 'address', b.address,
                'phone', b.phone, 'active', b.active, 'headOffice', b.is_head_office,
                'createdAt', corebank_internal.iso_utc(b.created_at),
                'updatedAt', corebank_internal.iso_utc(b.updated_at))
            FROM corebank.branches b WHERE b.id = branch_json.branch_id);
END
$fn$;
