CREATE FUNCTION corebank_internal.customer_profile_json(customer uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'customerId', c.id, 'email', p.email, 'phone', p.phone,
                'address', jsonb_build_object('line1', p.address_line1, 'line2', p.address_line2, 'city', p.city,
                                              'province', p.province, 'postalCode', p.postal_code,
                                              'country', p.country),
                'employment', jsonb_build_object('status', p.employment_status, 'employerName', p.employer_name,
                                                 'occupation', p.occupation),
                'declaredIncome', jsonb_build_object(
                    'amountMinor', p.declared_income_minor,
                    'amount', corebank_internal.money_text(p.declared_income_minor, p.income_currency),
                    'currency', p.income_currency, 'frequency', p.income_frequency),
                'updatedAt', corebank_internal.iso_utc(p.updated_at), 'updatedBy', p.updated_by)
            FROM corebank.customers c
            LEFT JOIN corebank.customer_profiles p ON p.customer_id = c.id
            WHERE c.id = customer);
END
$fn$;
