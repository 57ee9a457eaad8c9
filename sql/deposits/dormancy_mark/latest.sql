-- Marks DORMANT the ACTIVE accounts whose product has dormancy_days and
-- whose last customer-initiated posting (or opening) is that many days
-- before run_date, stamping dormant_since with marked_on: the business date
-- for POST /v1/dormancy/run (core_dormancy_run), run_date itself for the
-- end-of-day runner (eod_dormancy), so that a catch-up after downtime dates
-- each account's dormancy by the day it became due, not by the day the
-- runner caught up.
CREATE FUNCTION corebank_internal.dormancy_mark(run_date date, actor uuid, marked_on date) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    operator uuid := coalesce(actor, corebank_internal.system_actor());
    r record;
    marked jsonb := '[]'::jsonb;
BEGIN
    PERFORM corebank_internal.deposit_run_date(run_date);
    FOR r IN
        SELECT a.id, a.account_number, coalesce(d.last_customer_activity_on, d.opened_on) AS last_activity, p.dormancy_days
        FROM corebank.ledger_accounts a
        JOIN corebank.deposit_accounts d ON d.id = a.id
        JOIN corebank.deposit_products p ON p.id = d.product_id
        WHERE a.status = 'ACTIVE' AND p.dormancy_days IS NOT NULL
          AND coalesce(d.last_customer_activity_on, d.opened_on) + p.dormancy_days <= run_date
        ORDER BY a.id
        FOR UPDATE OF a
    LOOP
        PERFORM corebank_internal.account_status_set_on(r.id, 'DORMANT',
            format('no customer-initiated posting for %s days', r.dormancy_days), operator, marked_on);
        marked := marked || jsonb_build_object('accountId', r.id, 'accountNumber', r.account_number,
                                               'lastCustomerActivityOn', r.last_activity);
    END LOOP;
    RETURN jsonb_build_object('runDate', run_date, 'markedDormant', jsonb_array_length(marked), 'accounts', marked);
END
$fn$;
