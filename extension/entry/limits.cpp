// limits.cpp: the SQL faces of the fixed limits (core/limits.hpp), so that
// SQL reads each number from the one C++ definition instead of writing it
// again: the CHECK of the domain corebank.amount_minor, the page-size bounds
// of the list functions and the API keys' default rate.
//
//   corebank_internal.limit_amount_minor_max() -> bigint
//   corebank_internal.limit_page_size_default() -> int
//   corebank_internal.limit_page_size_max() -> int
//   corebank_internal.limit_api_key_requests_per_minute_default() -> int
//   corebank_internal.limit_api_key_requests_per_minute_max() -> int
//
// IMMUTABLE: a limit changes only with a new build of the extension, and
// the planner folds each call into a constant.
#include "core/limits.hpp"
#include "entry/entry.hpp"

namespace limits = corebank::core::limits;

/* SQL function: corebank_internal.limit_amount_minor_max() returns bigint */
COREBANK_FUNCTION(limit_amount_minor_max) { PG_RETURN_INT64(limits::amount_minor_max); }

/* SQL function: corebank_internal.limit_page_size_default() returns int */
COREBANK_FUNCTION(limit_page_size_default) { PG_RETURN_INT32(limits::page_size_default); }

/* SQL function: corebank_internal.limit_page_size_max() returns int */
COREBANK_FUNCTION(limit_page_size_max) { PG_RETURN_INT32(limits::page_size_max); }

/* SQL function: corebank_internal.limit_api_key_requests_per_minute_default() returns int */
COREBANK_FUNCTION(limit_api_key_requests_per_minute_default) {
    PG_RETURN_INT32(limits::api_key_requests_per_minute_default);
}

/* SQL function: corebank_internal.limit_api_key_requests_per_minute_max() returns int */
COREBANK_FUNCTION(limit_api_key_requests_per_minute_max) { PG_RETURN_INT32(limits::api_key_requests_per_minute_max); }
