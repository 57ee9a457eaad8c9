// identity_limits.hpp: limits the identity specification fixes (02-identity.md).
// Tunables the spec leaves open are GUCs / corebank.conf keys, not constants.
#pragma once

#include <cstddef>

namespace corebank::core {

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
inline constexpr int access_token_ttl_s_default = 900;

static_assert(failed_logins_before_lockout > 0);
static_assert(password_length_min < password_length_max);
static_assert(password_length_max <= login_password_length_max);

}  // namespace corebank::core
