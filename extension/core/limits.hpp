// limits.hpp: the fixed limits of corebank, each defined once (issue 11).
//
// A limit is a number the specification or the design fixes: the largest
// amount of money, the largest page of a list, the length of an email. The
// extension (core/, pg/, entry/) and the tier (httpd/) both include this
// header, and SQL reads the ones it needs through the functions of
// entry/limits.cpp (corebank_internal.limit_*()), so a change to a limit is
// one edit here. Tunables that an operator may change are not limits: they
// are settings (core/settings_table.hpp).
//
// Names say what is bounded, then the unit, then the qualifier last
// (_min, _max, _default), as in TigerBeetle's style.
#pragma once

#include <cstddef>
#include <cstdint>

namespace corebank::core::limits {

/*---- Money ----*/

// The largest amount of one movement of money, in minor units: 10^15 (ten
// trillion in a two-decimal currency). Every amount column and argument in
// SQL is the domain corebank.amount_minor, whose CHECK reads this value.
// Balances are sums of amounts and are not bounded by it (they are bigint
// and the posting engine checks them for overflow).
inline constexpr std::int64_t amount_minor_max = 1'000'000'000'000'000;

/*---- Lists ----*/

// Every paged list (transactions, approvals, customers, accounts): `size`.
inline constexpr std::int32_t page_size_min = 1;
inline constexpr std::int32_t page_size_default = 25;
inline constexpr std::int32_t page_size_max = 200;

/*---- API keys ----*/

// Requests per minute an API key may make when its creator names no limit,
// and the range a creator may name.
inline constexpr std::int32_t api_key_requests_per_minute_min = 1;
inline constexpr std::int32_t api_key_requests_per_minute_default = 6'000;
inline constexpr std::int32_t api_key_requests_per_minute_max = 1'000'000;

/*---- Request metadata ----*/

// The client IP address a caller passes along for the audit trail (login,
// refresh, registration, password reset, verification consent): an IPv6
// address in text with a zone fits.
inline constexpr std::size_t client_ip_length_max = 64;

/*---- Identity (auth), fixed by 02-identity.md ----*/

namespace auth {

inline constexpr int failed_logins_before_lockout = 5;
inline constexpr int lockout_minutes = 30;
inline constexpr int live_sessions_per_user_max = 3;
inline constexpr std::size_t password_length_min = 8;
inline constexpr std::size_t password_length_max = 128;
// Login accepts longer input and simply fails, but argon2 input stays bounded.
inline constexpr std::size_t login_password_length_max = 1024;
inline constexpr std::size_t email_length_max = 254;
inline constexpr std::size_t name_length_max = 100;
inline constexpr std::size_t channel_length_max = 50;
inline constexpr std::size_t client_id_length_max = 100;
inline constexpr std::size_t opaque_token_length_max = 512;
inline constexpr std::size_t opaque_token_bytes = 32;

static_assert(failed_logins_before_lockout > 0);
static_assert(lockout_minutes > 0);
static_assert(live_sessions_per_user_max >= 1);
static_assert(password_length_min < password_length_max);
static_assert(password_length_max <= login_password_length_max);
// base64url of the token's bytes must fit the accepted token length.
static_assert((opaque_token_bytes * 4 + 2) / 3 <= opaque_token_length_max);

}  // namespace auth

/*---- Relations ----*/

static_assert(amount_minor_max > 0);
// A sum of a few amounts (a transaction's lines, a balance and an accrual)
// must stay far inside a bigint; the ledger asserts its own line count.
static_assert(amount_minor_max < INT64_MAX / 1'000);
static_assert(page_size_min >= 1 && page_size_min <= page_size_default && page_size_default <= page_size_max);
static_assert(api_key_requests_per_minute_min >= 1);
static_assert(api_key_requests_per_minute_min <= api_key_requests_per_minute_default &&
              api_key_requests_per_minute_default <= api_key_requests_per_minute_max);

}  // namespace corebank::core::limits
