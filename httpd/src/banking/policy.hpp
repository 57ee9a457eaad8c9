// policy.hpp: which API-key scope and which staff permission each
// core-banking operation needs. The table is data
// (policies/core_operations.json), read once at start; every tier process
// reads the same file. Which roles hold a permission is not here: it is the
// database's (corebank.staff_role_permissions), read with the staff session
// on every request the hot path has not cached (banking/auth.cpp).
#pragma once

#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

enum class KeyScope { read = 0, write = 1, admin = 2 };  // hierarchical: admin ⊇ write ⊇ read
enum class ActorRule { none, optional, required };

// The policy's name for the check permission of the parked change an
// approval decides: the database judges it (core_approval_approve / _reject),
// since only it knows the change's operation.
inline constexpr const char* parked_check_permission = "<operation>:check";

struct OperationRule {
    KeyScope scope = KeyScope::admin;
    ActorRule actor = ActorRule::required;
    // What the acting staff member's roles must hold when a token is sent:
    // the operation's own name unless the file names another (a maker-checker
    // operation's "<operation>:make"). Empty: the database judges it
    // (parked_check_permission).
    std::string permission;
};

class OperationPolicy {
public:
    // Throws std::runtime_error naming the problem (unknown scope, a role list,
    // which since 1.8 only the database holds...).
    static OperationPolicy from_json(const nlohmann::json& document);
    static OperationPolicy from_file(const std::string& path);
    // Throws std::logic_error for an operation the file does not list: every
    // route must be in the policy, so a missing entry is a programming error.
    const OperationRule& rule(const std::string& operation) const;
    bool has(const std::string& operation) const { return rules_.count(operation) > 0; }

private:
    std::map<std::string, OperationRule> rules_;
};

// True when a key holding `granted` scopes may run an operation needing `needed`.
bool scope_allows(const std::set<std::string>& granted, KeyScope needed);

}  // namespace corebank::httpd::core_banking
