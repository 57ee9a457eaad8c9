// errors.hpp: the one exception type core code throws.
//
// A CoreError carries the SQLSTATE it should surface with, so the extension's
// entry wrapper can turn it into ereport() and the tier can map it to HTTP.
#pragma once

#include <cstring>
#include <stdexcept>
#include <string>

namespace corebank::core {

// Custom SQLSTATEs in the reserved class "CB"; see docs/design/identity-db-api.md.
inline constexpr const char* sqlstate_bad_request = "CB400";
inline constexpr const char* sqlstate_validation = "CBV00";
inline constexpr const char* sqlstate_invalid_credentials = "CB401";
inline constexpr const char* sqlstate_unauthorized = "CBU01";
inline constexpr const char* sqlstate_forbidden = "CB403";
inline constexpr const char* sqlstate_account_locked = "CBL03";
inline constexpr const char* sqlstate_not_found = "CB404";
inline constexpr const char* sqlstate_conflict = "CB409";
inline constexpr const char* sqlstate_unprocessable = "CB422";
inline constexpr const char* sqlstate_rate_limited = "CB429";
inline constexpr const char* sqlstate_internal = "XX000";

class CoreError : public std::runtime_error {
public:
    CoreError(const char* sqlstate, const std::string& message, std::string detail = {})
        : std::runtime_error(message), detail_(std::move(detail)) {
        const std::size_t length = strnlen(sqlstate, sizeof sqlstate_ - 1);
        std::memcpy(sqlstate_, sqlstate, length);
        sqlstate_[length] = '\0';
    }
    const char* sqlstate() const noexcept { return sqlstate_; }
    const std::string& detail() const noexcept { return detail_; }

private:
    char sqlstate_[6] = "XX000";
    std::string detail_;
};

}  // namespace corebank::core
