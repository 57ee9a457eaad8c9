// verify_input.cpp: see verify_input.hpp.
#include <nlohmann/json.hpp>

#include "pg/verify_input.hpp"

#include "core/errors.hpp"

namespace corebank::verify {

namespace {

using nlohmann::json;

std::size_t utf8_characters(const std::string& text) {
    std::size_t count = 0;
    for (const char c : text)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
    return count;
}

[[noreturn]] void fail(const std::string& message) { throw core::CoreError(core::sqlstate_validation, message); }

bool snake_case(const std::string& text) {
    if (text.empty() || text.size() > 64) return false;
    for (const char c : text)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

// The number field `name` of check `index`, in 0..1.
double unit_number(const json& check, const char* name, std::size_t index) {
    const auto it = check.find(name);
    if (it == check.end() || !it->is_number()) {
        fail("checks[" + std::to_string(index) + "]." + name + ": is required and must be a number");
    }
    const double value = it->get<double>();
    if (!(value >= 0.0 && value <= 1.0)) fail("checks[" + std::to_string(index) + "]." + name + ": must be 0 to 1");
    return value;
}

}  // namespace

bool provider_name_valid(const std::string& provider) {
    if (provider.empty() || provider.size() > 40) return false;
    for (const char c : provider)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-')) return false;
    return true;
}

std::optional<std::string> metadata_problem(const std::string& json_text) {
    const json value = json::parse(json_text, nullptr, false);
    if (value.is_discarded() || !value.is_object()) return "metadata: must be an object";
    if (value.size() > metadata_keys_max) return "metadata: must have at most 50 keys";
    if (json_text.size() > metadata_bytes_max) return "metadata: must be at most 8192 bytes as JSON";
    for (const auto& item : value.items()) {
        // PostgreSQL's text and jsonb cannot hold NUL.
        if (item.key().find('\0') != std::string::npos) return "metadata: keys must not contain NUL characters";
        const std::size_t key_length = utf8_characters(item.key());
        if (key_length == 0 || key_length > metadata_key_length_max) {
            return "metadata: keys must be 1 to 40 characters";
        }
        const json& v = item.value();
        if (v.is_string()) {
            if (v.get<std::string>().find('\0') != std::string::npos) {
                return "metadata." + item.key() + ": must not contain NUL characters";
            }
            if (utf8_characters(v.get<std::string>()) > metadata_value_length_max) {
                return "metadata." + item.key() + ": must be at most 500 characters";
            }
        } else if (!(v.is_number() || v.is_boolean() || v.is_null())) {
            return "metadata." + item.key() + ": must be a string, number, boolean or null";
        }
    }
    return std::nullopt;
}

CheckResults parse_check_results(const std::string& json_text, const Flow& flow, const std::string& provider) {
    if (!provider_name_valid(provider)) fail("provider: must be 1 to 40 of a-z 0-9 _ . -");
    const json value = json::parse(json_text, nullptr, false);
    if (value.is_discarded() || !value.is_array()) fail("checks: must be an array");
    const std::vector<std::string> types = check_types(flow);
    if (value.size() != types.size()) {
        fail("checks: must hold exactly one result per check of the flow (" + flow_name(flow) + ")");
    }
    CheckResults out;
    json clean = json::array();
    for (std::size_t index = 0; index < types.size(); ++index) {
        const json& check = value[index];
        const std::string at = "checks[" + std::to_string(index) + "]";
        if (!check.is_object()) fail(at + ": must be an object");
        const auto type = check.find("type");
        if (type == check.end() || !type->is_string() || type->get<std::string>() != types[index]) {
            fail(at + ".type: must be " + types[index]);
        }
        const auto status_field = check.find("status");
        const auto status = status_field != check.end() && status_field->is_string()
                                ? parse_check_status(status_field->get<std::string>())
                                : std::nullopt;
        if (!status) fail(at + ".status: must be pass, fail or review");

        json entry{{"type", types[index]}, {"status", check_status_name(*status)}, {"provider", provider}};
        if (types[index] == "facematch") entry["similarity"] = unit_number(check, "similarity", index);
        else entry["score"] = unit_number(check, "score", index);

        json reasons = json::array();
        if (const auto it = check.find("reasons"); it != check.end()) {
            if (!it->is_array() || it->size() > check_reasons_max) fail(at + ".reasons: must be an array of at most 16");
            for (const json& reason : *it) {
                if (!reason.is_string() || !snake_case(reason.get<std::string>())) {
                    fail(at + ".reasons: each must be 1 to 64 of a-z 0-9 _");
                }
                reasons.push_back(reason);
            }
        }
        entry["reasons"] = reasons;
        json measurements = json::object();
        if (const auto it = check.find("measurements"); it != check.end()) {
            if (!it->is_object() || it->dump().size() > check_measurements_bytes_max) {
                fail(at + ".measurements: must be an object of at most 2048 bytes");
            }
            measurements = *it;
        }
        entry["measurements"] = measurements;
        for (const auto& item : check.items()) {
            const std::string& key = item.key();
            if (key != "type" && key != "status" && key != "score" && key != "similarity" && key != "reasons" &&
                key != "measurements" && key != "provider") {
                fail(at + "." + key.substr(0, 64) + ": unknown field");
            }
        }
        clean.push_back(entry);
        out.outcomes.push_back(CheckOutcome{types[index], *status});
    }
    out.checks_json = clean.dump();
    return out;
}

}  // namespace corebank::verify
