-- The id of a read by id, refused with CBV00 'id: is required' when
-- absent: every get checks it before it renders anything. Since 1.7 it is
-- require_present's rule under the name every get already calls.
CREATE OR REPLACE FUNCTION corebank_internal.required_id(id uuid) RETURNS uuid
    LANGUAGE sql IMMUTABLE
    RETURN corebank_internal.require_present(id, 'id');
