// staff_mfa.cpp: see staff_mfa.hpp.
#include "banking/staff_mfa.hpp"

#include <algorithm>

namespace corebank::httpd::core_banking {

namespace {

bool array_holds(const nlohmann::json& claims, const char* name, const std::string& value) {
    if (!claims.is_object()) return false;
    const auto found = claims.find(name);
    if (found == claims.end() || !found->is_array()) return false;
    return std::any_of(found->begin(), found->end(),
                       [&](const nlohmann::json& item) { return item.is_string() && item.get<std::string>() == value; });
}

}  // namespace

std::optional<ApiError> second_factor_refusal(const std::vector<std::string>& roles, const nlohmann::json& claims,
                                              const std::vector<std::string>& mfa_roles) {
    std::string needing;
    for (const std::string& role : mfa_roles)
        if (std::find(roles.begin(), roles.end(), role) != roles.end()) needing += (needing.empty() ? "" : ", ") + role;
    if (needing.empty() || array_holds(claims, "amr", "mfa")) return std::nullopt;
    return ApiError{403, "FORBIDDEN",
                    "A second factor is required for the role " + needing +
                        ": sign in with a one-time code (enrol at POST /auth/mfa/totp on the identity service)"};
}

}  // namespace corebank::httpd::core_banking
