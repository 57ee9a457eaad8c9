-- core_config.sql: platform configuration, numbering, branches, branch
-- scoping, accounting periods, GL accounts and budgets through the core_* API.
--
-- Goal: each function renders its documented camelCase shape, validates its
-- input (CBV00), refuses broken rules (CB422 frozen code, backwards
-- numbering; CB409 duplicates) and parks what must be parked (period close
-- and reopen, branch scoping), applying it only on a checker's approval.
BEGIN;
SELECT plan(68);
\ir helpers/ledger.sql

-- Platform configuration.
SELECT is(corebank.core_platform_config_get() - 'updatedAt' - 'updatedBy' - 'today',
          '{"baseCurrency": "USD", "todayOverride": null, "businessTimeZone": "Africa/Harare",
            "makerCheckerLapseHours": 72,
            "currencies": [{"code": "USD", "name": "US Dollar", "minorUnits": 2},
                           {"code": "ZWG", "name": "Zimbabwe Gold", "minorUnits": 2}]}'::jsonb,
          'the seeded platform configuration');
SELECT is(corebank.core_platform_config_get() ->> 'today', (now() AT TIME ZONE 'Africa/Harare')::date::text,
          'today is the date in Harare');
SELECT is(corebank.core_platform_config_update('{"todayOverride": "2024-06-15", "makerCheckerLapseHours": 48}', pg_temp.maker()) ->> 'today',
          '2024-06-15', 'the date override sets today');
SELECT is(corebank.business_today(), '2024-06-15'::date, 'business_today follows the override');
SELECT is(corebank.core_platform_config_get() ->> 'makerCheckerLapseHours', '48', 'the lapse hours are updated');
SELECT throws_ok($$SELECT corebank.core_platform_config_update('{"businessTimeZone": "Mars/Olympus"}', pg_temp.maker())$$,
                 'CBV00', 'businessTimeZone: must be an IANA time zone name such as Africa/Harare', 'an unknown time zone');
SELECT throws_ok($$SELECT corebank.core_platform_config_update('{"makerCheckerLapseHours": 0}', pg_temp.maker())$$,
                 'CBV00', 'makerCheckerLapseHours: must be an integer from 1 to 8760', 'lapse hours are bounded');
SELECT throws_ok($$SELECT corebank.core_platform_config_update('{"baseCurrency": "ZWG"}', pg_temp.maker())$$,
                 'CB422', 'baseCurrency cannot be changed', 'the base currency is fixed');
SELECT throws_ok($$SELECT corebank.core_platform_config_update('{"todayOverride": "15/06/2024"}', pg_temp.maker())$$,
                 'CBV00', 'todayOverride: must be a date YYYY-MM-DD', 'a malformed date');
SELECT is(corebank.core_platform_config_update('{"businessTimeZone": "UTC"}', pg_temp.maker()) ->> 'businessTimeZone',
          'UTC', 'a valid time zone is accepted');
SELECT is(corebank.core_platform_config_update('{"todayOverride": null}', pg_temp.maker()) ->> 'todayOverride',
          NULL, 'a null override clears it');
SELECT corebank.core_platform_config_update('{"todayOverride": "2024-06-15"}', pg_temp.maker());

-- Numbering.
-- TRANSACTION numbers come from a sequence (1.5), which a posting of an
-- earlier test file moves on for good: its next value is whatever it is.
SELECT is(corebank.core_numbering_list() -> 3,
          (corebank.core_numbering_list() -> 3) || jsonb_build_object(
              'entityType', 'TRANSACTION', 'prefix', 'TX', 'padding', 10,
              'nextValue', corebank_internal.transaction_number_peek(),
              'example', 'TX' || lpad(corebank_internal.transaction_number_peek()::text, 10, '0')),
          'the seeded TRANSACTION numbering');
SELECT is(jsonb_array_length(corebank.core_numbering_list()), 4, 'four numbering entities');
SELECT is(corebank.next_number('LOAN'), 'LN0000000001', 'next_number issues the first loan number');
SELECT is(corebank.next_number('LOAN'), 'LN0000000002', 'and then the next');
SELECT is(corebank.core_numbering_update('LOAN', '{"prefix": "LOAN-", "padding": 6, "nextValue": 100}', pg_temp.maker()) ->> 'example',
          'LOAN-000100', 'prefix, padding and next value are updated');
SELECT is(corebank.next_number('LOAN'), 'LOAN-000100', 'numbers follow the new format');
SELECT throws_ok($$SELECT corebank.core_numbering_update('LOAN', '{"nextValue": 5}', pg_temp.maker())$$,
                 'CB422', 'nextValue may only move forward (it is 101)', 'numbering never goes back');
SELECT throws_ok($$SELECT corebank.core_numbering_update('CUSTOMER', '{}', pg_temp.maker())$$,
                 'CBV00', 'entityType: must be LOAN, ACCOUNT, TRANSACTION or APPLICATION', 'an unknown entity type');
SELECT throws_ok($$SELECT corebank.core_numbering_update('LOAN', '{"padding": 3}', pg_temp.maker())$$,
                 'CBV00', 'padding: must be an integer from 4 to 20', 'padding is bounded');
SELECT is(corebank.core_numbering_update('ACCOUNT', '{"padding": 4, "nextValue": 123456}', pg_temp.maker()) ->> 'example',
          'AC123456', 'a number longer than the padding is never truncated');

-- Branches.
SELECT is((SELECT array_agg(b ->> 'code') FROM jsonb_array_elements(corebank.core_branches_list()) b),
          ARRAY['HO', 'BYO', 'GWE', 'HRE', 'MSV', 'MUT'], 'six seeded branches, head office first');
SELECT is(corebank.core_branch_get(pg_temp.branch('BYO')) - 'id' - 'createdAt' - 'updatedAt',
          '{"code": "BYO", "name": "Bulawayo", "city": "Bulawayo", "address": null, "phone": null, "active": true, "headOffice": false}'::jsonb,
          'a BranchResponse');
SELECT is(corebank.core_branch_update(pg_temp.branch('BYO'), '{"address": "1 Main St", "phone": "+263292000000"}', pg_temp.maker()) ->> 'address',
          '1 Main St', 'a branch is updated');
SELECT throws_ok($$SELECT corebank.core_branch_update(pg_temp.branch('BYO'), '{"code": "BUL"}', pg_temp.maker())$$,
                 'CB422', 'A branch code cannot be changed', 'the branch code is fixed');
SELECT throws_ok($$SELECT corebank.core_branch_update(pg_temp.branch('HO'), '{"active": false}', pg_temp.maker())$$,
                 'CB422', 'The head office cannot be deactivated', 'the head office stays active');
SELECT throws_ok($$SELECT corebank.core_branch_get(gen_random_uuid())$$, 'CB404', 'Branch not found', 'an unknown branch');
SELECT is(corebank.core_branch_create('{"code": "KWE", "name": "Kwekwe", "city": "Kwekwe"}', pg_temp.maker()) ->> 'code',
          'KWE', 'a seventh branch');
SELECT throws_ok($$SELECT corebank.core_branch_create('{"code": "KWE", "name": "Again"}', pg_temp.maker())$$,
                 'CB409', 'A branch with code KWE already exists', 'branch codes are unique');

-- Branch scoping is parked, on and off alike (branch_scoping.sql).
SELECT is(corebank.core_branch_scoping_get() ->> 'enabled', 'false', 'branch scoping is off');
CREATE TEMP TABLE bs_on AS SELECT corebank.core_branch_scoping_update_request('{"enabled": true}', pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'status' FROM bs_on), 'PENDING', 'turning it on is parked');
SELECT corebank.core_approval_reject((SELECT (r ->> 'id')::uuid FROM bs_on), pg_temp.checker(), 'not now');
CREATE TEMP TABLE bs AS SELECT corebank.core_branch_scoping_update_request('{"enabled": false}', pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'status' FROM bs), 'PENDING', 'turning it off is parked');
SELECT corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM bs), pg_temp.checker(), NULL);
SELECT is((SELECT updated_by FROM corebank.platform_config), pg_temp.checker(), 'the approval applies it');

-- Periods: close and reopen are parked.
SELECT is(corebank.core_periods_list(), '[{"period": "2024-06", "status": "OPEN", "closedAt": null, "closedBy": null}]'::jsonb,
          'the current period is listed OPEN');
CREATE TEMP TABLE pc AS SELECT corebank.core_period_close_request('2024-05', pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'operation' FROM pc), 'period.close', 'closing is parked');
SELECT lives_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1)), 'M', '{"valueDate": "2024-05-10"}')$$,
                'May still takes postings while the close is pending');
SELECT throws_ok($$SELECT corebank.core_period_close_request('2024-07', pg_temp.maker())$$,
                 'CB422', 'a future accounting period cannot be closed', 'a future period');
SELECT throws_ok($$SELECT corebank.core_period_close_request('2024-13', pg_temp.maker())$$,
                 'CBV00', 'period: must be YYYY-MM', 'a malformed period');
SELECT throws_ok($$SELECT corebank.core_period_reopen_request('2024-05', pg_temp.maker())$$,
                 'CB409', 'accounting period 2024-05 is not closed', 'an open period cannot be reopened');
SELECT is(corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM pc), pg_temp.checker(), NULL) -> 'result' ->> 'status',
          'CLOSED', 'the approval closes May');
SELECT is((SELECT p ->> 'closedBy' FROM jsonb_array_elements(corebank.core_periods_list()) p WHERE p ->> 'period' = '2024-05'),
          pg_temp.checker()::text, 'closed by the checker');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1)), 'M', '{"valueDate": "2024-05-10"}')$$,
                 'CB422', 'accounting period 2024-05 is closed', 'May takes no more postings');
CREATE TEMP TABLE po AS SELECT corebank.core_period_reopen_request('2024-05', pg_temp.maker()) AS r;
SELECT corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM po), pg_temp.checker(), NULL);
SELECT lives_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1)), 'M', '{"valueDate": "2024-05-10"}')$$,
                'a reopened period takes postings again');

-- GL accounts.
SELECT is(jsonb_array_length(corebank.core_gl_accounts_list(NULL)), 46, '23 accounts and their ZWG mirrors');
SELECT is(jsonb_array_length(corebank.core_gl_accounts_list('{"type": "EXPENSE", "currency": "ZWG"}')), 4, 'filtered by type and currency');
SELECT throws_ok($$SELECT corebank.core_gl_accounts_list('"x"')$$, 'CBV00', 'filter: must be a JSON object', 'the filter is an object');
CREATE TEMP TABLE g AS SELECT corebank.core_gl_account_create('{"code": "5400", "name": "Marketing", "type": "EXPENSE"}', pg_temp.maker()) AS r;
SELECT is((SELECT r - 'id' - 'createdAt' - 'updatedAt' FROM g),
          '{"code": "5400", "name": "Marketing", "type": "EXPENSE", "currency": "USD", "mirrorOfId": null, "allowManualPosting": true,
            "active": true, "postedTo": false, "balanceMinor": 0, "balance": "0.00"}'::jsonb, 'a GlAccountResponse');
SELECT is((SELECT mirror_of::text FROM corebank.gl_accounts WHERE code = '5400' AND currency = 'ZWG'), (SELECT r ->> 'id' FROM g),
          'the ZWG mirror was created with it');
SELECT throws_ok($$SELECT corebank.core_gl_account_create('{"code": "5400", "name": "Again", "type": "EXPENSE"}', pg_temp.maker())$$,
                 'CB409', 'A GL account with code 5400 already exists in USD', 'codes are unique per currency');
SELECT throws_ok($$SELECT corebank.core_gl_account_create('{"code": "5500", "name": "X", "type": "COST"}', pg_temp.maker())$$,
                 'CBV00', 'type: must be ASSET, LIABILITY, EQUITY, INCOME or EXPENSE', 'the type is validated');
-- The fields are checked in the order code, name, type, on create (all required) and update (each optional).
SELECT throws_ok($$SELECT corebank.core_gl_account_create('{"name": "X", "type": "COST"}', pg_temp.maker())$$,
                 'CBV00', 'code: must be 1 to 20 of A-Z a-z 0-9 . _ -', 'a create needs a code, checked first');
SELECT throws_ok($$SELECT corebank.core_gl_account_create('{"code": "5500", "name": " ", "type": "COST"}', pg_temp.maker())$$,
                 'CBV00', 'name: is required', 'then a name');
SELECT throws_ok($$SELECT corebank.core_gl_account_create('{"code": "5500", "name": "X"}', pg_temp.maker())$$,
                 'CBV00', 'type: must be ASSET, LIABILITY, EQUITY, INCOME or EXPENSE', 'then a type');
SELECT throws_ok($$SELECT corebank.core_gl_account_create('[]', pg_temp.maker())$$,
                 'CBV00', 'request: must be a JSON object', 'the request is an object');
SELECT throws_ok($$SELECT corebank.core_gl_account_update((SELECT (r ->> 'id')::uuid FROM g), '{"code": "a b", "name": ""}', pg_temp.maker())$$,
                 'CBV00', 'code: must be 1 to 20 of A-Z a-z 0-9 . _ -', 'an update checks a given code first');
SELECT throws_ok($$SELECT corebank.core_gl_account_update((SELECT (r ->> 'id')::uuid FROM g), '{"name": " ", "type": "COST"}', pg_temp.maker())$$,
                 'CBV00', 'name: must not be blank', 'then a given name');
SELECT throws_ok($$SELECT corebank.core_gl_account_update((SELECT (r ->> 'id')::uuid FROM g), '{"type": "cost"}', pg_temp.maker())$$,
                 'CBV00', 'type: must be ASSET, LIABILITY, EQUITY, INCOME or EXPENSE', 'then a given type');
SELECT throws_ok($$SELECT corebank.core_gl_account_update(NULL, '{}', pg_temp.maker())$$,
                 'CBV00', 'id: is required', 'an update needs the id');
SELECT throws_ok($$SELECT corebank.core_branch_update(NULL, '{}', pg_temp.maker())$$,
                 'CBV00', 'id: is required', 'so does a branch update');
SELECT throws_ok($$SELECT corebank.core_branch_create(NULL, pg_temp.maker())$$,
                 'CBV00', 'request: must be a JSON object', 'a branch is created from an object');
SELECT is(corebank.core_gl_account_update((SELECT (r ->> 'id')::uuid FROM g), '{"code": "5410"}', pg_temp.maker()) ->> 'code',
          '5410', 'an unposted account changes code');
SELECT throws_ok($$SELECT corebank.core_gl_account_update(pg_temp.gl('5410', 'ZWG'), '{"name": "Own name"}', pg_temp.maker())$$,
                 'CB422', 'A ZWG mirror follows its USD account; change the USD account', 'a mirror is not edited on its own');
SELECT throws_ok($$SELECT corebank.core_gl_account_update(pg_temp.gl('1000'), '{"code": "1001"}', pg_temp.maker())$$,
                 'CB422', 'GL account code and type are frozen once posted to', 'a posted account keeps its code');
SELECT is(corebank.core_gl_account_get(pg_temp.gl('1000')) ->> 'balance', '0.02', 'the GL balance is rendered (two postings of 0.01)');

-- Budgets.
SELECT is(corebank.core_gl_budget_upsert('{"glAccountCode": "5200", "period": "2024-06", "amount": "1500.50"}', pg_temp.maker()) ->> 'amountMinor',
          '150050', 'a budget is set');
SELECT is(corebank.core_gl_budget_upsert('{"glAccountCode": "5200", "period": "2024-06", "amountMinor": 200000}', pg_temp.maker()) ->> 'amount',
          '2000.00', 'and replaced (one per account per month)');
SELECT is(jsonb_array_length(corebank.core_gl_budgets_list('2024-06')), 1, 'one budget in June');
SELECT is(corebank.core_gl_budget_upsert(jsonb_build_object('glAccountId', pg_temp.gl('5100'), 'period', '2024-07',
                                                            'amountMinor', 0, 'note', 'hiring freeze'), pg_temp.maker()) ->> 'note',
          'hiring freeze', 'a budget by GL account id, with a note');

SELECT * FROM finish();
ROLLBACK;
