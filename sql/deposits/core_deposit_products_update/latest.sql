-- UpdateDepositProductRequest: omitted members keep their value; tiers is a
-- full replace ([] removes them). The trigger freezes code, type and
-- currency once an account uses the product.
CREATE OR REPLACE FUNCTION corebank.core_deposit_products_update(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    p corebank.deposit_products;
    tier jsonb;
    tiers jsonb;
    previous bigint := -1;
    position int := 0;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    SELECT * INTO p FROM corebank.deposit_products x WHERE x.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Deposit product not found');
    END IF;
    IF request ? 'code' OR request ? 'accountType' OR request ? 'currency' OR request ? 'internal' THEN
        PERFORM corebank_internal.fail('CBV00', 'code, accountType, currency and internal cannot be changed');
    END IF;
    p.name := coalesce(corebank_internal.json_trimmed(request, 'name', 100), p.name);
    p.interest_method := coalesce(corebank_internal.json_enum(request, 'interestMethod', ARRAY['NONE', 'SIMPLE', 'COMPOUND']),
                                  p.interest_method);
    p.annual_rate_bp := coalesce(corebank_internal.json_int(request, 'annualRateBp', 0, 100000), p.annual_rate_bp);
    p.minimum_balance_minor := coalesce(corebank_internal.json_int(request, 'minimumBalanceMinor', 0, corebank_internal.limit_amount_minor_max()),
                                        p.minimum_balance_minor);
    p.minimum_opening_minor := coalesce(corebank_internal.json_int(request, 'minimumOpeningMinor', 0, corebank_internal.limit_amount_minor_max()),
                                        p.minimum_opening_minor);
    p.monthly_fee_minor := coalesce(corebank_internal.json_int(request, 'monthlyFeeMinor', 0, corebank_internal.limit_amount_minor_max()),
                                    p.monthly_fee_minor);
    p.withdrawal_fee_minor := coalesce(corebank_internal.json_int(request, 'withdrawalFeeMinor', 0, corebank_internal.limit_amount_minor_max()),
                                       p.withdrawal_fee_minor);
    p.term_days := coalesce(corebank_internal.json_int(request, 'termDays', 1, 3660), p.term_days);
    p.early_withdrawal_penalty_bp := coalesce(corebank_internal.json_int(request, 'earlyWithdrawalPenaltyBp', 0, 10000),
                                              p.early_withdrawal_penalty_bp);
    IF request ? 'dormancyDays' THEN
        p.dormancy_days := corebank_internal.json_int(request, 'dormancyDays', 1, 3660);
    END IF;
    p.active := coalesce(corebank_internal.json_bool(request, 'active'), p.active);
    IF p.account_type <> 'FIXED_DEPOSIT' AND request ? 'termDays' AND jsonb_typeof(request -> 'termDays') <> 'null' THEN
        PERFORM corebank_internal.fail('CBV00', 'termDays: applies to fixed deposits only');
    END IF;
    IF p.internal AND (p.interest_method <> 'NONE' OR p.dormancy_days IS NOT NULL) THEN
        PERFORM corebank_internal.fail('CB422', 'An internal account product earns no interest and is never dormant');
    END IF;
    IF request ? 'tiers' AND jsonb_typeof(request -> 'tiers') <> 'null' THEN
        tiers := request -> 'tiers';
        IF jsonb_typeof(tiers) <> 'array' OR jsonb_array_length(tiers) > 16 THEN
            PERFORM corebank_internal.fail('CBV00', 'tiers: must be an array of at most 16 tiers');
        END IF;
        FOR tier IN SELECT jsonb_array_elements(tiers) LOOP
            IF jsonb_typeof(tier) <> 'object'
               OR corebank_internal.json_int(tier, 'fromMinor', 0, corebank_internal.limit_amount_minor_max()) IS NULL
               OR corebank_internal.json_int(tier, 'rateBp', 0, 100000) IS NULL THEN
                PERFORM corebank_internal.fail('CBV00', format('tiers[%s]: needs fromMinor and rateBp', position));
            END IF;
            IF (position = 0 AND (tier ->> 'fromMinor')::bigint <> 0) OR (tier ->> 'fromMinor')::bigint <= previous THEN
                PERFORM corebank_internal.fail('CBV00',
                    format('tiers[%s].fromMinor: the first tier starts at 0 and each starts above the previous', position));
            END IF;
            previous := (tier ->> 'fromMinor')::bigint;
            position := position + 1;
        END LOOP;
        DELETE FROM corebank.deposit_product_tiers t WHERE t.product_id = id;
        INSERT INTO corebank.deposit_product_tiers (product_id, from_minor, rate_bp)
        SELECT id, (x ->> 'fromMinor')::bigint, (x ->> 'rateBp')::int FROM jsonb_array_elements(tiers) AS x;
    END IF;
    UPDATE corebank.deposit_products x
    SET name = p.name, interest_method = p.interest_method, annual_rate_bp = p.annual_rate_bp,
        minimum_balance_minor = p.minimum_balance_minor, minimum_opening_minor = p.minimum_opening_minor,
        monthly_fee_minor = p.monthly_fee_minor, withdrawal_fee_minor = p.withdrawal_fee_minor,
        term_days = p.term_days, early_withdrawal_penalty_bp = p.early_withdrawal_penalty_bp,
        dormancy_days = p.dormancy_days, active = p.active, updated_at = now(), updated_by = actor
    WHERE x.id = id;
    RETURN corebank_internal.deposit_product_json(id);
END
$fn$;
