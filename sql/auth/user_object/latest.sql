-- The user object of the API: absent values are JSON null. emailVerified and
-- phoneVerified: the account's email (phone) was proven by a confirmed claim
-- or, for the email, a followed reset link (docs/identity.md, "The current
-- user and contact claims").
CREATE OR REPLACE FUNCTION corebank_internal.user_object(user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object('id', u.id, 'email', u.email, 'phone', u.phone,
                                      'firstName', u.first_name, 'lastName', u.last_name,
                                      'kycTier', u.kyc_tier, 'roles', to_jsonb(u.roles),
                                      'emailVerified', u.email_verified_at IS NOT NULL,
                                      'phoneVerified', u.phone_verified_at IS NOT NULL)
            FROM corebank.auth_users u
            WHERE u.id = user_object.user_id);
END
$fn$;
