#include "banking/policy.hpp"

#include <fstream>
#include <stdexcept>

namespace corebank::httpd::core_banking {

namespace {

inline constexpr std::size_t permission_length_max = 100;

KeyScope parse_scope(const std::string& text, const std::string& operation) {
    if (text == "read") return KeyScope::read;
    if (text == "write") return KeyScope::write;
    if (text == "admin") return KeyScope::admin;
    throw std::runtime_error("policy: operation " + operation + " has unknown scope '" + text + "'");
}

ActorRule parse_actor(const std::string& text, const std::string& operation) {
    if (text == "none") return ActorRule::none;
    if (text == "optional") return ActorRule::optional;
    if (text == "required") return ActorRule::required;
    throw std::runtime_error("policy: operation " + operation + " has unknown actor rule '" + text + "'");
}

}  // namespace

OperationPolicy OperationPolicy::from_json(const nlohmann::json& document) {
    if (!document.is_object() || !document.contains("operations") || !document["operations"].is_object())
        throw std::runtime_error("policy: expected an object with \"operations\"");
    OperationPolicy policy;
    for (const auto& [name, entry] : document["operations"].items()) {
        if (!entry.is_object()) throw std::runtime_error("policy: operation " + name + " must be an object");
        OperationRule rule;
        rule.scope = parse_scope(entry.value("scope", ""), name);
        rule.actor = parse_actor(entry.value("actor", ""), name);
        // A role list here would be a second source of truth beside the database's.
        if (entry.contains("roles"))
            throw std::runtime_error("policy: operation " + name +
                                     " names roles: which roles may act is the database's (GET /v1/staff/roles)");
        rule.permission = name;
        if (entry.contains("permission")) {
            if (!entry["permission"].is_string() || entry["permission"].get<std::string>().empty() ||
                entry["permission"].get<std::string>().size() > permission_length_max)
                throw std::runtime_error("policy: permission of " + name + " must be a non-empty string");
            rule.permission = entry["permission"].get<std::string>();
            if (rule.permission == parked_check_permission) rule.permission.clear();
        }
        policy.rules_[name] = rule;
    }
    return policy;
}

OperationPolicy OperationPolicy::from_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("policy: cannot read " + path);
    const auto document = nlohmann::json::parse(in, nullptr, false);
    if (document.is_discarded()) throw std::runtime_error("policy: " + path + " is not valid JSON");
    return from_json(document);
}

const OperationRule& OperationPolicy::rule(const std::string& operation) const {
    const auto it = rules_.find(operation);
    if (it == rules_.end()) throw std::logic_error("policy has no entry for operation " + operation);
    return it->second;
}

bool scope_allows(const std::set<std::string>& granted, KeyScope needed) {
    int best = -1;
    for (const auto& scope : granted) {
        if (scope == "admin") best = std::max(best, static_cast<int>(KeyScope::admin));
        else if (scope == "write") best = std::max(best, static_cast<int>(KeyScope::write));
        else if (scope == "read") best = std::max(best, static_cast<int>(KeyScope::read));
    }
    return best >= static_cast<int>(needed);
}

}  // namespace corebank::httpd::core_banking
