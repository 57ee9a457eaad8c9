#include "json_body.hpp"

#include <cassert>

#include "api_error.hpp"
#include "core/json_unique_keys.hpp"

namespace corebank::httpd {


std::string trim_ascii(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n\f\v");
    if (first == std::string::npos) return "";
    const auto last = text.find_last_not_of(" \t\r\n\f\v");
    return text.substr(first, last - first + 1);
}

nlohmann::json parse_request_json(const std::string& text, bool allow_exceptions, std::string* duplicate_key) {
    core::JsonUniqueKeys keys;
    bool duplicate = false;
    auto parsed = nlohmann::json::parse(
        text,
        [&](int /*depth*/, nlohmann::json::parse_event_t event, nlohmann::json& value) {
            // Every event goes to `keys` (it follows the open objects); the first repeat is named.
            if (!keys.accept(event, value) && !duplicate) {
                duplicate = true;
                if (duplicate_key) *duplicate_key = keys.repeated().substr(0, 64);
            }
            return true;
        },
        allow_exceptions);
    if (duplicate) return nlohmann::json(nlohmann::json::value_t::discarded);
    return parsed;
}

JsonBody::JsonBody(const std::string& text) {
    // nlohmann rejects invalid UTF-8 and bad syntax; depth is bounded by the body size limit.
    json_ = parse_request_json(text);
    if (json_.is_discarded() || !json_.is_object()) throw bad_request("Malformed JSON request body");
}

JsonBody::JsonBody(nlohmann::json object, std::string path) : json_(std::move(object)), path_(std::move(path)) {
    if (!json_.is_object()) {
        problems_.emplace_back(path_, "must be an object");
        json_ = nlohmann::json::object();
    }
}

void JsonBody::problem(const std::string& name, const std::string& reason) {
    problems_.emplace_back(qualified(name), reason);
}

void JsonBody::absorb(const JsonBody& nested) {
    for (const auto& p : nested.problems_) problems_.push_back(p);
    for (const auto& item : nested.json_.items())
        if (nested.read_.count(item.key()) == 0)
            problems_.emplace_back(nested.qualified(item.key().substr(0, 64)), "unknown field");
}

std::optional<std::int64_t> JsonBody::integer(const std::string& name, bool required, std::int64_t min,
                                              std::int64_t max) {
    read_.insert(name);
    const auto it = json_.find(name);
    if (it == json_.end() || it->is_null()) {
        if (required) problem(name, "is required");
        return std::nullopt;
    }
    // Money is never a float: 12.5 or 1e3 are refused, not rounded.
    if (!it->is_number_integer()) {
        problem(name, "must be an integer");
        return std::nullopt;
    }
    if (it->is_number_unsigned() && it->get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
        problem(name, "must be at most " + std::to_string(max));
        return std::nullopt;
    }
    const std::int64_t value = it->get<std::int64_t>();
    if (value < min || value > max) {
        problem(name, "must be between " + std::to_string(min) + " and " + std::to_string(max));
        return std::nullopt;
    }
    return value;
}

std::optional<nlohmann::json> JsonBody::array(const std::string& name, bool required, std::size_t min_items,
                                              std::size_t max_items) {
    read_.insert(name);
    const auto it = json_.find(name);
    if (it == json_.end() || it->is_null()) {
        if (required) problem(name, "is required");
        return std::nullopt;
    }
    if (!it->is_array()) {
        problem(name, "must be an array");
        return std::nullopt;
    }
    if (it->size() < min_items || it->size() > max_items) {
        problem(name, "must have " + std::to_string(min_items) + " to " + std::to_string(max_items) + " items");
        return std::nullopt;
    }
    return *it;
}

std::optional<std::string> JsonBody::one_of(const std::string& name, bool required,
                                            const std::vector<std::string>& allowed) {
    auto value = text(name, TextRule{required, 1, 64, false, false});
    if (!value) return std::nullopt;
    for (const auto& a : allowed)
        if (*value == a) return value;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    problem(name, "must be one of " + list);
    return std::nullopt;
}

bool JsonBody::has_problem(const std::string& name) const {
    for (const auto& p : problems_)
        if (p.first == qualified(name)) return true;
    return false;
}

std::optional<std::string> JsonBody::text(const std::string& name, const TextRule& rule) {
    assert(rule.max_chars > 0);
    read_.insert(name);
    const auto it = json_.find(name);
    if (it == json_.end() || it->is_null()) {
        if (rule.required) problem(name, "is required");
        return std::nullopt;
    }
    if (!it->is_string()) {
        problem(name, "must be a string");
        return std::nullopt;
    }
    std::string value = it->get<std::string>();
    if (rule.trim) value = trim_ascii(value);
    if (value.empty() && rule.blank_is_absent) {
        if (rule.required) problem(name, "is required");
        return std::nullopt;
    }
    if (value.find('\0') != std::string::npos) {
        problem(name, "must not contain NUL characters");
        return std::nullopt;
    }
    const std::size_t length = utf8_length(value);
    if (length > rule.max_chars) {
        problem(name, "must be at most " + std::to_string(rule.max_chars) + " characters");
        return std::nullopt;
    }
    if (length < rule.min_chars) {
        problem(name, rule.min_chars == 1 ? "must not be blank"
                                          : "must be at least " + std::to_string(rule.min_chars) + " characters");
        return std::nullopt;
    }
    return value;
}

std::optional<bool> JsonBody::boolean(const std::string& name, bool required) {
    read_.insert(name);
    const auto it = json_.find(name);
    if (it == json_.end() || it->is_null()) {
        if (required) problem(name, "is required");
        return std::nullopt;
    }
    if (!it->is_boolean()) {
        problem(name, "must be a boolean");
        return std::nullopt;
    }
    return it->get<bool>();
}

void JsonBody::finish() const {
    std::string message;
    for (const auto& [name, reason] : problems_) message += (message.empty() ? "" : "; ") + name + ": " + reason;
    for (const auto& item : json_.items()) {
        if (read_.count(item.key()) == 0) {
            // Keys are echoed, so bound them.
            std::string key = qualified(item.key().size() > 64 ? item.key().substr(0, 64) + "..." : item.key());
            message += (message.empty() ? "" : "; ") + key + ": unknown field";
        }
    }
    if (!message.empty()) throw validation_error(message);
}

void expect_no_body(const std::string& text) {
    if (trim_ascii(text).empty()) return;
    const auto json = parse_request_json(text);
    if (json.is_discarded()) throw bad_request("Malformed JSON request body");
    if (!(json.is_object() && json.empty())) throw bad_request("This operation takes no request body");
}

}  // namespace corebank::httpd
