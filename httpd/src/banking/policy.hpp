// policy.hpp: which API-key scope and which staff roles each core-banking
// operation needs. The table is data (policies/core_operations.json), read
// once at start; every tier process reads the same file.
#pragma once

#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

enum class KeyScope { read = 0, write = 1, admin = 2 };  // hierarchical: admin ⊇ write ⊇ read
enum class ActorRule { none, optional, required };

struct OperationRule {
    KeyScope scope = KeyScope::admin;
    ActorRule actor = ActorRule::required;
    std::set<std::string> roles;  // any one of them suffices
};

class OperationPolicy {
public:
    // Throws std::runtime_error naming the problem (unknown scope, missing roles...).
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
