#include "banking/fields.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include "api_error.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

using nlohmann::json;

const std::vector<std::string>& currencies() {
    static const std::vector<std::string> codes = {"USD", "ZWG"};
    return codes;
}

std::string upper(std::string text) {
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

bool contains(const std::vector<std::string>& items, const std::string& item) {
    return std::find(items.begin(), items.end(), item) != items.end();
}

bool matches(const std::string& text, const char* pattern) { return std::regex_match(text, std::regex(pattern)); }

void put(json& out, const char* name, const std::optional<std::string>& value) {
    if (value) out[name] = *value;
}
void put(json& out, const char* name, const std::optional<std::int64_t>& value) {
    if (value) out[name] = *value;
}
void put(json& out, const char* name, const std::optional<bool>& value) {
    if (value) out[name] = *value;
}

std::optional<std::string> read_text(JsonBody& body, const std::string& name, std::size_t max, bool required) {
    return body.text(name, TextRule{required, 1, max, true, true});
}

std::optional<std::string> read_uuid(JsonBody& body, const std::string& name, bool required, Blank blank) {
    auto value = body.text(name, TextRule{required, 1, 36, true, blank == Blank::absent});
    if (value && !is_uuid_text(*value)) {
        body.problem(name, "must be a UUID");
        return std::nullopt;
    }
    return value;
}

std::optional<std::string> read_date(JsonBody& body, const std::string& name, bool required, Blank blank) {
    auto value = body.text(name, TextRule{required, 1, 10, true, blank == Blank::absent});
    if (value && !is_iso_date(*value)) {
        body.problem(name, "must be a date (YYYY-MM-DD)");
        return std::nullopt;
    }
    return value;
}

std::optional<std::string> read_enum(JsonBody& body, const std::string& name, const std::vector<std::string>& allowed,
                                     bool required) {
    auto value = body.text(name, TextRule{required, 1, 40, true, true});
    if (!value) return value;
    const std::string wanted = upper(*value);
    if (contains(allowed, wanted)) return wanted;
    body.problem(name, "must be one of " + joined(allowed));
    return std::nullopt;
}

std::optional<std::string> read_pattern(JsonBody& body, const std::string& name, std::size_t max, const char* pattern,
                                        const std::string& reason, bool required) {
    auto value = read_text(body, name, max, required);
    if (value && !matches(*value, pattern)) {
        body.problem(name, reason);
        return std::nullopt;
    }
    return value;
}

std::optional<std::string> read_country(JsonBody& body, const std::string& name) {
    auto value = read_pattern(body, name, 64, "^[A-Za-z]{2}$", "must be an ISO 3166 alpha-2 country code such as ZW");
    if (value) return upper(*value);
    return value;
}

std::optional<std::string> read_currency(JsonBody& body, const std::string& name, bool required) {
    return read_enum(body, name, currencies(), required);
}

json raw_object(const std::string& text) {
    json raw = parse_request_json(text);
    if (raw.is_discarded() || !raw.is_object()) throw bad_request("Malformed JSON request body");
    return raw;
}

JsonBody body_without(const json& raw, std::initializer_list<const char*> names) {
    json copy = raw;
    for (const char* name : names) copy.erase(name);
    return JsonBody(copy, "");
}

std::optional<std::int64_t> read_amount(JsonBody& body, const json& raw, bool required) {
    if (raw.contains("amount")) body.problem("amount", "send amountMinor, an integer number of minor units (cents)");
    return body.integer("amountMinor", required, 1, core::limits::amount_minor_max);
}

std::string or_empty_object(const std::string& text) { return trim_ascii(text).empty() ? "{}" : text; }

void read_branch(JsonBody& body, json& out) {
    const auto id = read_uuid(body, "branchId");
    const auto code = read_pattern(body, "branchCode", branch_code_max, "^[A-Za-z0-9]{1,10}$",
                                   "must be a branch code (letters and digits)");
    if (id && code) body.problem("branchCode", "give branchId or branchCode, not both");
    put(out, "branchId", id);
    if (code) out["branchCode"] = upper(*code);
}

std::optional<std::string> read_gl_code(JsonBody& body, const std::string& name) {
    return read_pattern(body, name, gl_code_max, "^[A-Za-z0-9._-]{1,20}$", "must be a GL account code (1 to 20 of A-Z 0-9 . _ -)");
}

std::optional<std::string> read_reason(JsonBody& body, bool required) { return read_text(body, "reason", reason_max, required); }

}  // namespace corebank::httpd::core_banking
