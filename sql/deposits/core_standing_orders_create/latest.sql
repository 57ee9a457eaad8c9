-- CreateStandingOrderRequest (docs/design/deposits.md).
-- 1.8 (issue 15, branch scoping): the source account, and a beneficiary's
-- customer, must be of a branch the transaction sees (else not found); the
-- target may be any branch's, as a transfer's may.
CREATE OR REPLACE FUNCTION corebank.core_standing_orders_create(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    today date := corebank_internal.business_today();
    source record;
    target record;
    beneficiary corebank.beneficiaries;
    o corebank.standing_orders;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    o.source_account_id := corebank_internal.json_uuid(request, 'sourceAccountId');
    o.target_account_id := corebank_internal.json_uuid(request, 'targetAccountId');
    o.beneficiary_id := corebank_internal.json_uuid(request, 'beneficiaryId');
    o.amount_minor := corebank_internal.json_positive_amount(request);
    o.frequency := corebank_internal.json_enum(request, 'frequency', ARRAY['DAILY', 'WEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY']);
    o.start_date := corebank_internal.json_date(request, 'startDate');
    o.end_date := corebank_internal.json_date(request, 'endDate');
    o.description := corebank_internal.json_trimmed(request, 'description', 200);
    IF o.source_account_id IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'sourceAccountId: is required'); END IF;
    IF o.frequency IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'frequency: is required (DAILY, WEEKLY, MONTHLY, QUARTERLY or YEARLY)');
    END IF;
    IF o.start_date IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'startDate: is required'); END IF;
    IF o.start_date < today THEN
        PERFORM corebank_internal.fail('CBV00', format('startDate: must not be before the business date %s', today));
    END IF;
    IF o.end_date < o.start_date THEN
        PERFORM corebank_internal.fail('CBV00', 'endDate: must not be before startDate');
    END IF;
    IF o.beneficiary_id IS NOT NULL THEN
        IF o.target_account_id IS NOT NULL THEN
            PERFORM corebank_internal.fail('CBV00', 'targetAccountId: give targetAccountId or beneficiaryId, not both');
        END IF;
        SELECT b.* INTO beneficiary FROM corebank.beneficiaries b JOIN corebank.customers c ON c.id = b.customer_id
        WHERE b.id = o.beneficiary_id AND b.active AND corebank.branch_visible(c.branch_id);
        IF NOT FOUND THEN
            PERFORM corebank_internal.fail('CB404', 'Beneficiary not found');
        END IF;
        IF beneficiary.account_id IS NULL THEN
            PERFORM corebank_internal.fail('CB422', 'Standing orders pay accounts of this bank; the beneficiary banks elsewhere');
        END IF;
        o.target_account_id := beneficiary.account_id;
    END IF;
    IF o.target_account_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'targetAccountId: is required (or beneficiaryId)');
    END IF;
    IF o.target_account_id = o.source_account_id THEN
        PERFORM corebank_internal.fail('CBV00', 'targetAccountId: must differ from sourceAccountId');
    END IF;
    SELECT * INTO source FROM corebank_internal.deposit_account_row(o.source_account_id, 'sourceAccountId');
    IF NOT corebank.branch_visible(source.branch_id) THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    SELECT * INTO target FROM corebank_internal.deposit_account_row(o.target_account_id, 'targetAccountId');
    IF beneficiary.id IS NOT NULL AND beneficiary.customer_id IS DISTINCT FROM source.customer_id THEN
        PERFORM corebank_internal.fail('CB422', 'The beneficiary belongs to another customer');
    END IF;
    IF source.status = 'CLOSED' OR target.status = 'CLOSED' THEN
        PERFORM corebank_internal.fail('CB422', 'A standing order cannot involve a CLOSED account');
    END IF;
    IF source.currency <> target.currency THEN
        PERFORM corebank_internal.fail('CB422', 'A standing order moves money between accounts of one currency');
    END IF;
    PERFORM corebank_internal.money_currency_check(request, source.currency, source.account_number);
    INSERT INTO corebank.standing_orders AS x (reference, source_account_id, target_account_id, beneficiary_id,
        amount_minor, currency, frequency, start_date, end_date, next_run_date, description, created_by, updated_by)
    VALUES (coalesce(upper(corebank_internal.json_trimmed(request, 'reference', 30)),
                     'SO' || lpad(nextval('corebank.standing_order_number_seq')::text, 8, '0')),
            o.source_account_id, o.target_account_id, o.beneficiary_id, o.amount_minor, source.currency, o.frequency,
            o.start_date, o.end_date, o.start_date, o.description, actor, actor)
    ON CONFLICT DO NOTHING
    RETURNING x.* INTO o;
    IF o.id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'A standing order with this reference already exists');
    END IF;
    RETURN corebank_internal.standing_order_json(o.id);
END
$fn$;
