#include "banking/deposits/customer_profile_validation.hpp"

#include <cctype>
#include <functional>

#include "api_error.hpp"
#include "banking/fields.hpp"

namespace corebank::httpd::core_banking {

using nlohmann::json;

namespace {

using Check = std::function<std::optional<std::string>(const std::string&)>;

std::string bounded_key(const std::string& key) { return key.size() > 64 ? key.substr(0, 64) + "..." : key; }

// A PATCH leaf: null or blank clears (null out), a string is trimmed and
// checked, anything else is refused. Problems go to `sink` under `path`.
void patch_leaf(const json& object, const std::string& key, const std::string& path, std::size_t max, json& out,
                JsonBody& sink, const Check& check = {}) {
    const json& value = object.at(key);
    if (value.is_null()) {
        out[key] = nullptr;
        return;
    }
    if (!value.is_string()) {
        sink.problem(path, "must be a string");
        return;
    }
    const std::string text = trim_ascii(value.get<std::string>());
    if (text.empty()) {
        out[key] = nullptr;
        return;
    }
    if (text.find('\0') != std::string::npos) {
        sink.problem(path, "must not contain NUL characters");
        return;
    }
    if (utf8_length(text) > max) {
        sink.problem(path, "must be at most " + std::to_string(max) + " characters");
        return;
    }
    if (check) {
        if (const auto reason = check(text)) {
            sink.problem(path, *reason);
            return;
        }
    }
    out[key] = text;
}

Check enum_check(const std::vector<std::string>& allowed) {
    return [allowed](const std::string& text) -> std::optional<std::string> {
        if (contains(allowed, upper(text))) return std::nullopt;
        return "must be one of " + joined(allowed);
    };
}

std::optional<std::string> country_check(const std::string& text) {
    if (matches(text, "^[A-Za-z]{2}$")) return std::nullopt;
    return "must be an ISO 3166 alpha-2 country code such as ZW";
}

std::optional<std::string> email_check(const std::string& text) {
    if (matches(text, R"(^[^@\s]+@[^@\s]+\.[^@\s]+$)")) return std::nullopt;
    return "must be an email address";
}

std::optional<std::string> phone_check(const std::string& text) {
    if (matches(text, R"(^\+?[0-9]{10,15}$)")) return std::nullopt;
    return "must be 10 to 15 digits, optionally after +";
}

// Upper-cases an enumeration or country leaf after checking.
void upper_leaf(json& out, const std::string& key) {
    if (out.contains(key) && out[key].is_string()) out[key] = upper(out[key].get<std::string>());
}

const std::vector<std::string>& identity_fields() {
    static const std::vector<std::string> fields = {
        "id",       "type",        "customerNumber", "firstName",          "middleName",        "lastName",
        "dateOfBirth", "gender",   "nationalId",     "nationality",        "legalName",         "tradingName",
        "registrationNumber", "incorporationDate", "countryOfIncorporation", "status"};
    return fields;
}

// A nested PATCH object member: null or blank clears every field of it.
bool patch_object_start(const json& patch, const std::string& key, const std::string& path, json& out,
                        JsonBody& sink) {
    const json& value = patch.at(key);
    if (value.is_null() || (value.is_string() && trim_ascii(value.get<std::string>()).empty())) {
        out[key] = nullptr;
        return false;
    }
    if (!value.is_object()) {
        sink.problem(path, "must be an object");
        return false;
    }
    return true;
}

void income_amount(const json& item, const std::string& where, json& income, JsonBody& sink) {
    const std::string range = "must be between 0 and " + std::to_string(core::limits::amount_minor_max);
    if (item.is_null()) income["amountMinor"] = nullptr;
    else if (!item.is_number_integer()) sink.problem(where, "must be an integer");
    else if (item.is_number_unsigned() && item.get<std::uint64_t>() > static_cast<std::uint64_t>(core::limits::amount_minor_max))
        sink.problem(where, range);
    else if (item.get<std::int64_t>() < 0 || item.get<std::int64_t>() > core::limits::amount_minor_max) sink.problem(where, range);
    else income["amountMinor"] = item.get<std::int64_t>();
}

}  // namespace

json profile_patch(const json& patch, const std::string& prefix, JsonBody& sink) {
    json out = json::object();
    const auto path = [&](const std::string& key) { return prefix + bounded_key(key); };
    for (const auto& [key, value] : patch.items()) {
        if (contains(identity_fields(), key)) {
            sink.problem(path(key), "identity fields cannot be changed through the profile");
        } else if (key == "riskCategory") {
            sink.problem(path(key), "is changed with PUT /v1/customers/{id}/kyc/risk-category");
        } else if (key == "signingMandate") {
            sink.problem(path(key), "is changed with PUT /v1/customers/{id}/signing-mandate");
        } else if (key == "email") {
            patch_leaf(patch, key, path(key), 254, out, sink, email_check);
            if (out.contains("email") && out["email"].is_string()) {
                std::string lower = out["email"].get<std::string>();
                for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                out["email"] = lower;
            }
        } else if (key == "phone") {
            patch_leaf(patch, key, path(key), 16, out, sink, phone_check);
        } else if (key == "address") {
            if (!patch_object_start(patch, key, path(key), out, sink)) continue;
            json address = json::object();
            for (const auto& [member, ignored] : value.items()) {
                (void)ignored;
                const std::string where = path(key) + "." + bounded_key(member);
                if (member == "line1" || member == "line2") patch_leaf(value, member, where, 200, address, sink);
                else if (member == "city" || member == "province") patch_leaf(value, member, where, 100, address, sink);
                else if (member == "postalCode") patch_leaf(value, member, where, 20, address, sink);
                else if (member == "country") patch_leaf(value, member, where, 64, address, sink, country_check);
                else sink.problem(where, "unknown field");
            }
            upper_leaf(address, "country");
            out[key] = address;
        } else if (key == "employment") {
            if (!patch_object_start(patch, key, path(key), out, sink)) continue;
            json employment = json::object();
            static const std::vector<std::string> statuses = {"EMPLOYED", "SELF_EMPLOYED", "UNEMPLOYED", "RETIRED",
                                                              "STUDENT"};
            for (const auto& [member, ignored] : value.items()) {
                (void)ignored;
                const std::string where = path(key) + "." + bounded_key(member);
                if (member == "status") patch_leaf(value, member, where, 20, employment, sink, enum_check(statuses));
                else if (member == "employerName") patch_leaf(value, member, where, 200, employment, sink);
                else if (member == "occupation") patch_leaf(value, member, where, 100, employment, sink);
                else sink.problem(where, "unknown field");
            }
            upper_leaf(employment, "status");
            out[key] = employment;
        } else if (key == "declaredIncome") {
            if (!patch_object_start(patch, key, path(key), out, sink)) continue;
            json income = json::object();
            for (const auto& [member, item] : value.items()) {
                const std::string where = path(key) + "." + bounded_key(member);
                if (member == "amountMinor") income_amount(item, where, income, sink);
                else if (member == "currency") patch_leaf(value, member, where, 3, income, sink, enum_check(currencies()));
                else if (member == "frequency")
                    patch_leaf(value, member, where, 10, income, sink, enum_check({"MONTHLY", "ANNUAL"}));
                else if (member == "amount") sink.problem(where, "send amountMinor, an integer number of minor units (cents)");
                else sink.problem(where, "unknown field");
            }
            upper_leaf(income, "currency");
            upper_leaf(income, "frequency");
            out[key] = income;
        } else {
            sink.problem(path(key), "unknown field");
        }
    }
    return out;
}

json parse_profile_patch(const std::string& text) {
    const json raw = raw_object(text);
    JsonBody sink(json::object(), "");
    json out = profile_patch(raw, "", sink);
    sink.finish();
    if (raw.empty())
        throw validation_error("body: at least one of email, phone, address, employment, declaredIncome is required");
    return out;
}

}  // namespace corebank::httpd::core_banking
