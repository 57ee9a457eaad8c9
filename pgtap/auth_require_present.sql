-- auth_require_present.sql: corebank_internal.require_present (1.7), the one
-- "<name>: is required" rule of the identity and verification functions.
--
-- Goal: a NULL of any type is refused with CBV00 naming the argument, a value
-- is returned as it is, the functions that now use it refuse as before, and
-- the tier cannot call it. Method: direct calls, then through the callers.
BEGIN;
SELECT plan(7);

SELECT throws_ok($$SELECT corebank_internal.require_present(NULL::uuid, 'user_id')$$,
                 'CBV00', 'user_id: is required', 'a NULL is refused with CBV00 naming the argument');
SELECT throws_ok($$SELECT corebank_internal.require_present(NULL::text, 'reason')$$,
                 'CBV00', 'reason: is required', 'any type: a NULL text is refused too');
SELECT is(corebank_internal.require_present('0b0b0b0b-0000-4000-8000-000000000001'::uuid, 'id'),
          '0b0b0b0b-0000-4000-8000-000000000001'::uuid, 'a present value is returned as it is');
SELECT throws_ok($$SELECT corebank.auth_deactivate(NULL)$$, 'CBV00', 'user_id: is required',
                 'auth_deactivate still refuses a missing user_id');
SELECT throws_ok($$SELECT corebank.auth_logout_all(NULL)$$, 'CBV00', 'user_id: is required',
                 'auth_logout_all still refuses a missing user_id');
SELECT throws_ok($$SELECT corebank.core_api_key_revoke(NULL, NULL)$$, 'CBV00', 'id: is required',
                 'core_api_key_revoke still refuses a missing id');

SELECT is(has_function_privilege('corebank_app', 'corebank_internal.require_present(anyelement,text)'::regprocedure,
                                 'EXECUTE'),
          false,
          'the tier cannot call it');

SELECT * FROM finish();
ROLLBACK;
