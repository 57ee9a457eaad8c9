-- One day of the daily run (docs/design/deposits.md, Interest). The caller
-- holds the run lock.
CREATE OR REPLACE FUNCTION corebank_internal.interest_day(day date, operator uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    month_end bool := day = (date_trunc('month', day) + interval '1 month - 1 day')::date;
    period text := to_char(day, 'YYYY-MM');
    r record;
    accrual numeric;
    cumulative numeric;
    new_minor bigint;
    totals jsonb := '{}'::jsonb;
    total record;
    group_key text;
    group_currency text;
    group_branch uuid;
    journal_id uuid;
    batch_no int;
    interest_id uuid;
    fee_id uuid;
    skipped text;
    balance bigint;
    accrued int := 0;
    journals int := 0;
    postings int := 0;
    fees int := 0;
    fees_skipped int := 0;
    accrued_by_currency jsonb := '{}'::jsonb;
    posted_by_currency jsonb := '{}'::jsonb;
BEGIN
    -- The ledger rows first, in id order: the posting engine's lock order.
    PERFORM FROM corebank.ledger_accounts a JOIN corebank.deposit_accounts d ON d.id = a.id
    WHERE d.processed_through < day AND a.status <> 'CLOSED' ORDER BY a.id FOR UPDATE OF a;

    FOR r IN
        SELECT a.id, a.currency::text AS currency, a.branch_id,
               corebank_internal.account_balance_as_of(a.id, day) AS balance,
               p.interest_method, p.annual_rate_bp, d.accrued_micro, d.accrued_minor,
               (SELECT jsonb_agg(jsonb_build_object('fromMinor', t.from_minor, 'rateBp', t.rate_bp) ORDER BY t.from_minor)
                FROM corebank.deposit_product_tiers t WHERE t.product_id = p.id) AS tiers
        FROM corebank.deposit_accounts d
        JOIN corebank.ledger_accounts a ON a.id = d.id
        JOIN corebank.deposit_products p ON p.id = d.product_id
        WHERE d.processed_through < day AND d.opened_on <= day AND a.status IN ('ACTIVE', 'DORMANT', 'FROZEN')
          AND p.interest_method <> 'NONE'
        ORDER BY a.id
    LOOP
        accrual := corebank_internal.interest_daily_micro(r.balance::bigint, r.accrued_micro::text, r.interest_method,
                                                          r.annual_rate_bp, r.tiers)::numeric;
        cumulative := r.accrued_micro + accrual;
        new_minor := corebank_internal.interest_micro_to_minor(cumulative::text);
        INSERT INTO corebank.interest_accruals (account_id, accrual_date, balance_minor, rate_bp, accrual_micro,
                                                cumulative_micro, journal_minor)
        VALUES (r.id, day, r.balance, corebank_internal.interest_effective_rate_bp(r.balance::bigint, r.annual_rate_bp, r.tiers),
                accrual, cumulative, new_minor - r.accrued_minor);
        UPDATE corebank.deposit_accounts d SET accrued_micro = cumulative, accrued_minor = new_minor, updated_at = now()
        WHERE d.id = r.id;
        accrued := accrued + 1;
        IF new_minor > r.accrued_minor THEN
            group_key := r.currency || '|' || r.branch_id::text;
            totals := jsonb_set(totals, ARRAY[group_key],
                                to_jsonb(coalesce((totals ->> group_key)::bigint, 0) + new_minor - r.accrued_minor));
        END IF;
    END LOOP;

    -- The day's accrual journal, per currency and branch.
    FOR total IN SELECT t.key, t.value::text::bigint AS amount FROM jsonb_each(totals) t ORDER BY t.key LOOP
        group_currency := split_part(total.key, '|', 1);
        group_branch := split_part(total.key, '|', 2)::uuid;
        batch_no := 1 + (SELECT count(*) FROM corebank.interest_accrual_journals j
                         WHERE j.accrual_date = day AND j.currency = group_currency AND j.branch_id = group_branch);
        journal_id := (corebank_internal.account_post(jsonb_build_object(
            'type', 'INTEREST_ACCRUAL',
            'reference', format('ACR-%s-%s-%s%s', to_char(day, 'YYYYMMDD'), group_currency,
                                (SELECT b.code FROM corebank.branches b WHERE b.id = group_branch),
                                CASE WHEN batch_no > 1 THEN '-' || batch_no END),
            'description', format('Daily interest accrual %s', day), 'valueDate', day, 'branchId', group_branch,
            'channel', 'SYSTEM', 'operatorId', operator,
            'lines', jsonb_build_array(
                jsonb_build_object('glAccountId', corebank_internal.gl_id('5000', group_currency), 'side', 'D',
                                   'amountMinor', total.amount, 'currency', group_currency),
                jsonb_build_object('glAccountId', corebank_internal.gl_id('2100', group_currency), 'side', 'C',
                                   'amountMinor', total.amount, 'currency', group_currency))),
            '{}'::jsonb) ->> 'id')::uuid;
        INSERT INTO corebank.interest_accrual_journals (transaction_id, accrual_date, currency, branch_id, amount_minor, batch)
        VALUES (journal_id, day, group_currency, group_branch, total.amount, batch_no);
        journals := journals + 1;
        accrued_by_currency := jsonb_set(accrued_by_currency, ARRAY[group_currency],
                                         to_jsonb(coalesce((accrued_by_currency ->> group_currency)::bigint, 0) + total.amount));
    END LOOP;

    IF month_end THEN
        FOR r IN
            SELECT a.id, a.account_number, a.currency::text AS currency, a.branch_id, a.status, a.allow_overdraft_minor,
                   d.accrued_minor, d.accrued_micro, p.monthly_fee_minor
            FROM corebank.deposit_accounts d
            JOIN corebank.ledger_accounts a ON a.id = d.id
            JOIN corebank.deposit_products p ON p.id = d.product_id
            WHERE d.processed_through < day AND d.opened_on <= day AND a.status <> 'CLOSED'
              AND (d.accrued_micro > 0 OR p.monthly_fee_minor > 0)
            ORDER BY a.id
        LOOP
            interest_id := NULL;
            fee_id := NULL;
            skipped := NULL;
            IF r.accrued_minor > 0 THEN
                interest_id := (corebank_internal.account_post(jsonb_build_object(
                    'type', 'INTEREST_ACCRUAL', 'reference', format('INT-%s-%s', to_char(day, 'YYYYMM'), r.account_number),
                    'description', format('Interest for %s', period), 'valueDate', day, 'branchId', r.branch_id,
                    'channel', 'SYSTEM', 'operatorId', operator,
                    'lines', jsonb_build_array(
                        jsonb_build_object('glAccountId', corebank_internal.gl_id('2100', r.currency), 'side', 'D',
                                           'amountMinor', r.accrued_minor, 'currency', r.currency),
                        jsonb_build_object('accountId', r.id, 'side', 'C', 'amountMinor', r.accrued_minor,
                                           'currency', r.currency, 'narrative', format('Interest %s', period)))),
                    '{}'::jsonb) ->> 'id')::uuid;
                postings := postings + 1;
                posted_by_currency := jsonb_set(posted_by_currency, ARRAY[r.currency],
                    to_jsonb(coalesce((posted_by_currency ->> r.currency)::bigint, 0) + r.accrued_minor));
            END IF;
            -- The month's sub-cent remainder is not carried over.
            UPDATE corebank.deposit_accounts d SET accrued_micro = 0, accrued_minor = 0, updated_at = now()
            WHERE d.id = r.id AND d.accrued_micro <> 0;
            IF r.monthly_fee_minor > 0 THEN
                balance := corebank_internal.account_balance(r.id);
                IF r.status <> 'ACTIVE' THEN
                    skipped := format('account is %s', r.status);
                ELSIF balance - r.monthly_fee_minor < -r.allow_overdraft_minor THEN
                    skipped := 'insufficient funds for the maintenance fee';
                ELSE
                    fee_id := (corebank_internal.account_post(jsonb_build_object(
                        'type', 'FEE', 'reference', format('FEE-%s-%s', to_char(day, 'YYYYMM'), r.account_number),
                        'description', format('Maintenance fee %s', period), 'valueDate', day, 'branchId', r.branch_id,
                        'channel', 'SYSTEM', 'operatorId', operator,
                        'lines', jsonb_build_array(
                            jsonb_build_object('accountId', r.id, 'side', 'D', 'amountMinor', r.monthly_fee_minor,
                                               'currency', r.currency, 'narrative', format('Maintenance fee %s', period)),
                            jsonb_build_object('glAccountId', corebank_internal.gl_id('4100', r.currency), 'side', 'C',
                                               'amountMinor', r.monthly_fee_minor, 'currency', r.currency))),
                        '{}'::jsonb) ->> 'id')::uuid;
                    fees := fees + 1;
                END IF;
                IF skipped IS NOT NULL THEN
                    fees_skipped := fees_skipped + 1;
                END IF;
            END IF;
            IF interest_id IS NOT NULL OR fee_id IS NOT NULL OR skipped IS NOT NULL THEN
                INSERT INTO corebank.account_month_ends (account_id, period, interest_minor, interest_transaction_id,
                                                         fee_minor, fee_transaction_id, fee_skipped_reason)
                VALUES (r.id, period, CASE WHEN interest_id IS NOT NULL THEN r.accrued_minor ELSE 0 END, interest_id,
                        CASE WHEN fee_id IS NOT NULL THEN r.monthly_fee_minor ELSE 0 END, fee_id, skipped);
            END IF;
        END LOOP;
    END IF;

    UPDATE corebank.deposit_accounts d SET processed_through = day, updated_at = now()
    FROM corebank.ledger_accounts a
    WHERE a.id = d.id AND d.processed_through < day AND a.status <> 'CLOSED';
    RETURN jsonb_build_object('accrued', accrued, 'journals', journals, 'postings', postings, 'fees', fees,
                              'feesSkipped', fees_skipped, 'accruedByCurrency', accrued_by_currency,
                              'postedByCurrency', posted_by_currency);
END
$fn$;
