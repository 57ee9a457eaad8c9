#include "banking/policy.hpp"

#include <fstream>
#include <stdexcept>

namespace corebank::httpd::core_banking {

namespace {

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
        if (entry.contains("roles")) {
            for (const auto& role : entry["roles"]) {
                if (!role.is_string()) throw std::runtime_error("policy: roles of " + name + " must be strings");
                rule.roles.insert(role.get<std::string>());
            }
        }
        if (rule.actor == ActorRule::required && rule.roles.empty())
            throw std::runtime_error("policy: operation " + name + " requires an actor but names no roles");
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
