#include "banking/deposits_validation.hpp"

#include "core/errors.hpp"
#include "core/transfer_batch.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <regex>

#include "api_error.hpp"
#include "banking/validation.hpp"
#include "json_body.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

using nlohmann::json;

// Bounds of the extension (sql/corebank--1.3--1.4.sql and the ledger).
inline constexpr std::size_t reference_max = 64;
inline constexpr std::size_t description_max = 500;
inline constexpr std::size_t narrative_max = 400;
inline constexpr std::size_t gl_code_max = 20;
inline constexpr std::size_t branch_code_max = 10;
inline constexpr std::size_t idempotency_key_max = 128;
inline constexpr std::size_t reason_max = 500;

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

void put(json& out, const char* name, const std::optional<std::string>& value) {
    if (value) out[name] = *value;
}
void put(json& out, const char* name, const std::optional<std::int64_t>& value) {
    if (value) out[name] = *value;
}
void put(json& out, const char* name, const std::optional<bool>& value) {
    if (value) out[name] = *value;
}

// Trimmed text of 1..max characters; blank counts as not given.
std::optional<std::string> read_text(JsonBody& body, const std::string& name, std::size_t max, bool required = false) {
    return body.text(name, TextRule{required, 1, max, true, true});
}

std::optional<std::string> read_uuid(JsonBody& body, const std::string& name, bool required = false) {
    auto value = body.text(name, TextRule{required, 1, 36, true, true});
    if (value && !is_uuid_text(*value)) {
        body.problem(name, "must be a UUID");
        return std::nullopt;
    }
    return value;
}

std::optional<std::string> read_date(JsonBody& body, const std::string& name, bool required = false) {
    auto value = body.text(name, TextRule{required, 1, 10, true, true});
    if (value && !is_iso_date(*value)) {
        body.problem(name, "must be a date (YYYY-MM-DD)");
        return std::nullopt;
    }
    return value;
}

// An enumeration, case-insensitive; upper case out.
std::optional<std::string> read_enum(JsonBody& body, const std::string& name, const std::vector<std::string>& allowed,
                                     bool required = false) {
    auto value = body.text(name, TextRule{required, 1, 40, true, true});
    if (!value) return value;
    const std::string wanted = upper(*value);
    if (contains(allowed, wanted)) return wanted;
    body.problem(name, "must be one of " + joined(allowed));
    return std::nullopt;
}

bool matches(const std::string& text, const char* pattern) { return std::regex_match(text, std::regex(pattern)); }

std::optional<std::string> read_pattern(JsonBody& body, const std::string& name, std::size_t max, const char* pattern,
                                        const std::string& reason, bool required = false) {
    auto value = read_text(body, name, max, required);
    if (value && !matches(*value, pattern)) {
        body.problem(name, reason);
        return std::nullopt;
    }
    return value;
}

// ISO 3166 alpha-2, upper case out.
std::optional<std::string> read_country(JsonBody& body, const std::string& name) {
    auto value = read_pattern(body, name, 64, "^[A-Za-z]{2}$", "must be an ISO 3166 alpha-2 country code such as ZW");
    if (value) return upper(*value);
    return value;
}

std::optional<std::string> read_currency(JsonBody& body, const std::string& name, bool required = false) {
    return read_enum(body, name, currencies(), required);
}

// A parsed body object (malformed JSON: 400 BAD_REQUEST, as JsonBody).
json raw_object(const std::string& text) {
    json raw = json::parse(text, nullptr, false);
    if (raw.is_discarded() || !raw.is_object()) throw bad_request("Malformed JSON request body");
    return raw;
}

// A JsonBody over the request without the members a caller reads itself
// (problems found there are added to it with problem()).
JsonBody body_without(const json& raw, std::initializer_list<const char*> names) {
    json copy = raw;
    for (const char* name : names) copy.erase(name);
    return JsonBody(copy, "");
}

// amountMinor (required by default); `amount` is refused with a hint.
std::optional<std::int64_t> read_amount(JsonBody& body, const json& raw, bool required = true) {
    if (raw.contains("amount")) body.problem("amount", "send amountMinor, an integer number of minor units (cents)");
    return body.integer("amountMinor", required, 1, deposits_amount_minor_max);
}

// An empty body counts as {} for operations whose every member is optional.
std::string or_empty_object(const std::string& text) { return trim_ascii(text).empty() ? "{}" : text; }

void read_branch(JsonBody& body, json& out) {
    const auto id = read_uuid(body, "branchId");
    const auto code = read_pattern(body, "branchCode", branch_code_max, "^[A-Za-z0-9]{1,10}$",
                                   "must be a branch code (letters and digits)");
    if (id && code) body.problem("branchCode", "give branchId or branchCode, not both");
    put(out, "branchId", id);
    if (code) out["branchCode"] = upper(*code);
}

// ---------------------------------------------------------------- the profile PATCH

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
    const std::string range = "must be between 0 and " + std::to_string(deposits_amount_minor_max);
    if (item.is_null()) income["amountMinor"] = nullptr;
    else if (!item.is_number_integer()) sink.problem(where, "must be an integer");
    else if (item.is_number_unsigned() && item.get<std::uint64_t>() > static_cast<std::uint64_t>(deposits_amount_minor_max))
        sink.problem(where, range);
    else if (item.get<std::int64_t>() < 0 || item.get<std::int64_t>() > deposits_amount_minor_max) sink.problem(where, range);
    else income["amountMinor"] = item.get<std::int64_t>();
}

// UpdateCustomerProfileRequest, member by member; `prefix` names the
// object in messages ("profile." inside CreateCustomerRequest).
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

// Header members shared by the money requests (docs/design/deposits.md, Money).
void read_money_header(JsonBody& body, json& out) {
    put(out, "reference", read_text(body, "reference", reference_max));
    put(out, "description", read_text(body, "description", description_max));
    put(out, "valueDate", read_date(body, "valueDate"));
    auto channel = read_pattern(body, "channel", 32, "^[A-Za-z0-9_.-]{1,32}$", "must be 1 to 32 of A-Z a-z 0-9 _ . -");
    if (channel) out["channel"] = upper(*channel);
    read_branch(body, out);
}

std::optional<std::string> read_gl_code(JsonBody& body, const std::string& name) {
    return read_pattern(body, name, gl_code_max, "^[A-Za-z0-9._-]{1,20}$", "must be a GL account code (1 to 20 of A-Z 0-9 . _ -)");
}

// An optional body {reason?} of at most reason_max characters.
std::optional<std::string> read_reason(JsonBody& body, bool required) { return read_text(body, "reason", reason_max, required); }

}  // namespace

// ---------------------------------------------------------------- enumerations

const std::vector<std::string>& account_types() {
    static const std::vector<std::string> types = {"SAVINGS", "CURRENT", "FIXED_DEPOSIT", "CALL_DEPOSIT", "MONEY_MARKET",
                                                   "TRUST",   "ESCROW",  "NOSTRO",        "SUSPENSE",     "GL"};
    return types;
}

const std::vector<std::string>& account_statuses() {
    static const std::vector<std::string> statuses = {"PENDING_ACTIVATION", "ACTIVE", "FROZEN", "DORMANT", "CLOSED"};
    return statuses;
}

const std::vector<std::string>& risk_categories() {
    static const std::vector<std::string> categories = {"LOW", "MEDIUM", "HIGH", "PROHIBITED"};
    return categories;
}

const std::vector<std::string>& signing_mandates() {
    static const std::vector<std::string> mandates = {"ANY_ONE", "ANY_TWO", "ALL"};
    return mandates;
}

const std::vector<std::string>& kyc_document_types() {
    static const std::vector<std::string> types = {"NATIONAL_ID",      "PASSPORT",        "DRIVERS_LICENCE",
                                                   "COMPANY_REGISTRATION", "PROOF_OF_ADDRESS", "TAX_CERTIFICATE",
                                                   "OTHER"};
    return types;
}

const std::vector<std::string>& kyc_check_types() {
    static const std::vector<std::string> types = {"IDENTITY_REGISTRY", "SANCTIONS_PEP", "CREDIT_BUREAU", "ADVERSE_MEDIA"};
    return types;
}

const std::vector<std::string>& standing_order_frequencies() {
    static const std::vector<std::string> frequencies = {"DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "YEARLY"};
    return frequencies;
}

// ---------------------------------------------------------------- customers

json parse_customer_create(const std::string& text) {
    const json raw = raw_object(text);
    JsonBody body = body_without(raw, {"email", "phone", "profile"});
    json out = json::object();
    const auto type = read_enum(body, "type", {"INDIVIDUAL", "CORPORATE"}, true);
    put(out, "type", type);
    const bool individual = type && *type == "INDIVIDUAL";
    const bool corporate = type && *type == "CORPORATE";
    const char* document_pattern = "^[A-Za-z0-9 /.-]{1,50}$";
    const char* document_reason = "must be 1 to 50 of A-Z 0-9 space / . -";
    // individual
    put(out, "firstName", read_text(body, "firstName", 100, individual));
    put(out, "middleName", read_text(body, "middleName", 100));
    put(out, "lastName", read_text(body, "lastName", 100, individual));
    put(out, "dateOfBirth", read_date(body, "dateOfBirth", individual));
    put(out, "gender", read_enum(body, "gender", {"MALE", "FEMALE", "OTHER"}));
    put(out, "nationalId", read_pattern(body, "nationalId", 50, document_pattern, document_reason));
    put(out, "nationality", read_country(body, "nationality"));
    // corporate
    put(out, "legalName", read_text(body, "legalName", 200, corporate));
    put(out, "tradingName", read_text(body, "tradingName", 200));
    put(out, "registrationNumber", read_pattern(body, "registrationNumber", 50, document_pattern, document_reason, corporate));
    put(out, "incorporationDate", read_date(body, "incorporationDate"));
    put(out, "countryOfIncorporation", read_country(body, "countryOfIncorporation"));
    put(out, "signingMandate", read_enum(body, "signingMandate", signing_mandates()));
    // either
    put(out, "riskCategory", read_enum(body, "riskCategory", risk_categories()));
    read_branch(body, out);
    static const std::vector<std::string> individual_only = {"firstName", "middleName", "lastName", "dateOfBirth",
                                                             "gender", "nationalId", "nationality"};
    static const std::vector<std::string> corporate_only = {"legalName", "tradingName", "registrationNumber",
                                                            "incorporationDate", "countryOfIncorporation",
                                                            "signingMandate"};
    if (individual || corporate) {
        for (const auto& name : individual ? corporate_only : individual_only)
            if (raw.contains(name) && !raw[name].is_null())
                body.problem(name, "does not apply to a customer of type " + *type);
    }
    // Contact details and the profile follow the profile PATCH rules.
    json contact = json::object();
    for (const char* name : {"email", "phone"})
        if (raw.contains(name) && !raw[name].is_null()) contact[name] = raw[name];
    const json contact_out = profile_patch(contact, "", body);
    for (const auto& [key, value] : contact_out.items())
        if (!value.is_null()) out[key] = value;
    if (raw.contains("profile") && !raw["profile"].is_null()) {
        if (!raw["profile"].is_object()) body.problem("profile", "must be an object");
        else out["profile"] = profile_patch(raw["profile"], "profile.", body);
    }
    body.finish();
    return out;
}

json parse_signing_mandate(const std::string& text) {
    JsonBody body(text);
    json out = json::object();
    put(out, "signingMandate", read_enum(body, "signingMandate", signing_mandates(), true));
    body.finish();
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

json parse_interaction_create(const std::string& text) {
    JsonBody body(text);
    json out = json::object();
    put(out, "channel", read_enum(body, "channel", {"BRANCH", "PHONE", "EMAIL", "SMS", "MOBILE", "WEB", "OTHER"}));
    put(out, "interactionType",
        read_enum(body, "interactionType", {"ENQUIRY", "COMPLAINT", "SERVICE_REQUEST", "SALES", "KYC", "OTHER"}, true));
    put(out, "summary", read_text(body, "summary", 500, true));
    put(out, "notes", read_text(body, "notes", 4000));
    put(out, "occurredAt",
        read_pattern(body, "occurredAt", 40, R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$)",
                     "must be an ISO 8601 timestamp with a zone (2026-11-21T08:15:00Z)"));
    body.finish();
    return out;
}

json parse_case_open(const std::string& text) {
    JsonBody body(text);
    json out = json::object();
    put(out, "subject", read_text(body, "subject", 200, true));
    put(out, "description", read_text(body, "description", 4000));
    auto category = read_pattern(body, "category", 50, "^[A-Za-z0-9 _-]{1,50}$", "must be 1 to 50 of A-Z 0-9 space _ -");
    if (category) out["category"] = upper(*category);
    body.finish();
    return out;
}

json parse_case_resolve(const std::string& text) {
    JsonBody body(text);
    json out = json::object();
    put(out, "resolution", read_text(body, "resolution", 4000, true));
    body.finish();
    return out;
}

json parse_beneficial_owner_add(const std::string& text) {
    const json raw = raw_object(text);
    JsonBody body = body_without(raw, {"ownershipPercent"});
    json out = json::object();
    const auto owner = read_uuid(body, "ownerCustomerId");
    const auto name = read_text(body, "fullName", 200);
    put(out, "ownerCustomerId", owner);
    put(out, "fullName", name);
    put(out, "dateOfBirth", read_date(body, "dateOfBirth"));
    put(out, "nationality", read_country(body, "nationality"));
    put(out, "nationalId", read_pattern(body, "nationalId", 50, "^[A-Za-z0-9 /.-]{1,50}$",
                                        "must be 1 to 50 of A-Z 0-9 space / . -"));
    const auto bp = body.integer("ownershipBp", false, 0, 10000);
    put(out, "ownershipBp", bp);
    put(out, "hasControl", body.boolean("hasControl", false));
    // ownershipPercent: "25", "25.5", "33.33" (a string or a JSON number), 0..100, exact.
    if (raw.contains("ownershipPercent") && !raw["ownershipPercent"].is_null()) {
        const json& value = raw["ownershipPercent"];
        std::string percent;
        if (value.is_string()) percent = trim_ascii(value.get<std::string>());
        else if (value.is_number()) percent = value.dump();
        std::int64_t hundredths = -1;
        if (matches(percent, R"(^[0-9]{1,3}(\.[0-9]{1,2})?$)")) {
            const auto dot = percent.find('.');
            hundredths = std::stoll(percent.substr(0, dot)) * 100;
            if (dot != std::string::npos) {
                std::string fraction = percent.substr(dot + 1);
                if (fraction.size() == 1) fraction += "0";
                hundredths += std::stoll(fraction);
            }
        }
        if (hundredths < 0 || hundredths > 10000) {
            body.problem("ownershipPercent", "must be a percentage from 0 to 100 with at most 2 decimals");
        } else {
            out["ownershipPercent"] = percent;
            if (bp && *bp != hundredths) body.problem("ownershipPercent", "does not match ownershipBp");
        }
    }
    if (!owner && !name && !body.has_problem("ownerCustomerId") && !body.has_problem("fullName"))
        body.problem("fullName", "is required (or ownerCustomerId)");
    body.finish();
    return out;
}

json parse_beneficiary_add(const std::string& text) {
    JsonBody body(text);
    json out = json::object();
    put(out, "name", read_text(body, "name", 200, true));
    auto number = read_pattern(body, "accountNumber", 34, "^[A-Za-z0-9-]{1,34}$", "must be 1 to 34 of A-Z 0-9 -", true);
    if (number) out["accountNumber"] = upper(*number);
    auto swift = read_pattern(body, "bankSwiftCode", 11, "^[A-Za-z]{6}[A-Za-z0-9]{2}([A-Za-z0-9]{3})?$",
                              "must be a SWIFT/BIC code of 8 or 11 characters");
    if (swift) out["bankSwiftCode"] = upper(*swift);
    put(out, "currency", read_currency(body, "currency"));
    put(out, "nickname", read_text(body, "nickname", 100));
    if (swift && !out.contains("currency") && !body.has_problem("currency"))
        body.problem("currency", "is required for an account at another bank");
    body.finish();
    return out;
}

// ---------------------------------------------------------------- KYC

json parse_kyc_risk(const std::string& text) {
    JsonBody body(text);
    json out = json::object();
    put(out, "riskCategory", read_enum(body, "riskCategory", risk_categories(), true));
    put(out, "reason", read_reason(body, false));
    body.finish();
    return out;
}

json parse_kyc_review(const std::string& text) {
    JsonBody body(or_empty_object(text));
    json out = json::object();
    put(out, "notes", read_text(body, "notes", 2000));
    put(out, "nextReviewDate", read_date(body, "nextReviewDate"));
    body.finish();
    return out;
}

json parse_kyc_document_add(const std::string& text) {
    JsonBody body(text);
    json out = json::object();
    put(out, "documentType", read_enum(body, "documentType", kyc_document_types(), true));
    auto number = read_pattern(body, "documentNumber", 50, "^[A-Za-z0-9 /.-]{1,50}$",
                               "must be 1 to 50 of A-Z 0-9 space / . -", true);
    if (number) out["documentNumber"] = upper(*number);
    put(out, "issuingCountry", read_country(body, "issuingCountry"));
    const auto issued = read_date(body, "issuedOn");
    const auto expires = read_date(body, "expiresOn");
    put(out, "issuedOn", issued);
    put(out, "expiresOn", expires);
    if (issued && expires && *expires <= *issued) body.problem("expiresOn", "must be after issuedOn");
    body.finish();
    return out;
}

json parse_kyc_document_verify(const std::string& text) {
    JsonBody body(text);
    json out = json::object();
    put(out, "decision", read_enum(body, "decision", {"VERIFIED", "REJECTED"}, true));
    put(out, "note", read_text(body, "note", 1000));
    body.finish();
    return out;
}

json parse_kyc_checks(const std::string& text, const std::string& provider_mode) {
    JsonBody body(or_empty_object(text));
    json out = json::object();
    if (const auto types = body.array("checkTypes", false, 1, kyc_check_types().size())) {
        json wanted = json::array();
        for (const auto& item : *types) {
            const std::string value = item.is_string() ? upper(trim_ascii(item.get<std::string>())) : "";
            if (!contains(kyc_check_types(), value)) {
                body.problem("checkTypes", "each must be one of " + joined(kyc_check_types()));
                break;
            }
            if (std::find(wanted.begin(), wanted.end(), value) == wanted.end()) wanted.push_back(value);
        }
        out["checkTypes"] = wanted;
    }
    body.finish();
    out["providerMode"] = provider_mode;
    return out;
}

// ---------------------------------------------------------------- products and accounts

json parse_product_update(const std::string& text) {
    const json raw = raw_object(text);
    JsonBody body = body_without(raw, {"dormancyDays", "code", "accountType", "currency", "internal"});
    json out = json::object();
    for (const char* frozen : {"code", "accountType", "currency", "internal"})
        if (raw.contains(frozen)) body.problem(frozen, "cannot be changed");
    put(out, "name", read_text(body, "name", 100));
    put(out, "interestMethod", read_enum(body, "interestMethod", {"NONE", "SIMPLE", "COMPOUND"}));
    put(out, "annualRateBp", body.integer("annualRateBp", false, 0, rate_bp_max));
    for (const char* amount : {"minimumBalanceMinor", "minimumOpeningMinor", "monthlyFeeMinor", "withdrawalFeeMinor"})
        put(out, amount, body.integer(amount, false, 0, deposits_amount_minor_max));
    put(out, "termDays", body.integer("termDays", false, 1, term_days_max));
    put(out, "earlyWithdrawalPenaltyBp", body.integer("earlyWithdrawalPenaltyBp", false, 0, penalty_bp_max));
    put(out, "active", body.boolean("active", false));
    // dormancyDays: null means never dormant, so null is a value here.
    if (raw.contains("dormancyDays")) {
        const json& days = raw["dormancyDays"];
        if (days.is_null()) out["dormancyDays"] = nullptr;
        else if (!days.is_number_integer()) body.problem("dormancyDays", "must be an integer or null");
        else if (days.is_number_unsigned() && days.get<std::uint64_t>() > static_cast<std::uint64_t>(term_days_max))
            body.problem("dormancyDays", "must be between 1 and " + std::to_string(term_days_max));
        else if (days.get<std::int64_t>() < 1 || days.get<std::int64_t>() > term_days_max)
            body.problem("dormancyDays", "must be between 1 and " + std::to_string(term_days_max));
        else out["dormancyDays"] = days.get<std::int64_t>();
    }
    if (const auto tiers = body.array("tiers", false, 0, product_tiers_max)) {
        json list = json::array();
        std::int64_t previous = -1;
        for (std::size_t i = 0; i < tiers->size(); ++i) {
            JsonBody tier((*tiers)[i], "tiers[" + std::to_string(i) + "]");
            const auto from = tier.integer("fromMinor", true, 0, deposits_amount_minor_max);
            const auto rate = tier.integer("rateBp", true, 0, rate_bp_max);
            if (from && ((i == 0 && *from != 0) || *from <= previous))
                tier.problem("fromMinor", "the first tier starts at 0 and each starts above the previous");
            if (from) previous = *from;
            if (from && rate) list.push_back({{"fromMinor", *from}, {"rateBp", *rate}});
            body.absorb(tier);
        }
        out["tiers"] = list;
    }
    body.finish();
    if (raw.empty()) throw validation_error("body: at least one field to change is required");
    return out;
}

json parse_account_open(const std::string& text) {
    const json raw = raw_object(text);
    JsonBody body = body_without(raw, {"initialDeposit"});
    json out = json::object();
    put(out, "customerId", read_uuid(body, "customerId"));
    const auto product_id = read_uuid(body, "productId");
    auto product_code = read_pattern(body, "productCode", 20, "^[A-Za-z0-9-]{2,20}$", "must be a product code such as SAV-STD");
    if (product_code) product_code = upper(*product_code);
    if (!product_id && !product_code && !body.has_problem("productId") && !body.has_problem("productCode"))
        body.problem("productCode", "is required (or productId)");
    if (product_id && product_code) body.problem("productCode", "give productCode or productId, not both");
    put(out, "productId", product_id);
    put(out, "productCode", product_code);
    put(out, "name", read_text(body, "name", 200));
    put(out, "glAccountCode", read_gl_code(body, "glAccountCode"));
    read_branch(body, out);
    if (raw.contains("initialDeposit") && !raw["initialDeposit"].is_null()) {
        json given = raw["initialDeposit"];
        if (given.is_object()) given.erase("amount");
        JsonBody deposit(given, "initialDeposit");
        json initial = json::object();
        if (raw["initialDeposit"].is_object()) {
            put(initial, "amountMinor", read_amount(deposit, raw["initialDeposit"]));
            put(initial, "reference", read_text(deposit, "reference", reference_max));
            put(initial, "description", read_text(deposit, "description", description_max));
            put(initial, "narrative", read_text(deposit, "narrative", narrative_max));
            auto channel = read_pattern(deposit, "channel", 32, "^[A-Za-z0-9_.-]{1,32}$",
                                        "must be 1 to 32 of A-Z a-z 0-9 _ . -");
            if (channel) initial["channel"] = upper(*channel);
            put(initial, "sourceGlAccountCode", read_gl_code(deposit, "sourceGlAccountCode"));
        }
        body.absorb(deposit);
        out["initialDeposit"] = initial;
    }
    body.finish();
    return out;
}

json parse_lifecycle_reason(const std::string& text, bool reason_required) {
    JsonBody body(or_empty_object(text));
    json out = json::object();
    put(out, "reason", read_reason(body, reason_required));
    body.finish();
    return out;
}

// ---------------------------------------------------------------- money

json parse_money(const std::string& text, MoneyKind kind, const std::optional<std::string>& idempotency_header) {
    const json raw = raw_object(text);
    JsonBody body = body_without(raw, {"amount"});
    json out = json::object();
    if (kind == MoneyKind::transfer) {
        const auto from = read_uuid(body, "fromAccountId", true);
        const auto to = read_uuid(body, "toAccountId", true);
        if (from && to && upper(*from) == upper(*to)) body.problem("toAccountId", "must differ from fromAccountId");
        put(out, "fromAccountId", from);
        put(out, "toAccountId", to);
    } else {
        put(out, "accountId", read_uuid(body, "accountId", true));
    }
    put(out, "amountMinor", read_amount(body, raw));
    put(out, "currency", read_currency(body, "currency"));
    read_money_header(body, out);
    switch (kind) {
        case MoneyKind::deposit:
            put(out, "sourceGlAccountCode", read_gl_code(body, "sourceGlAccountCode"));
            put(out, "narrative", read_text(body, "narrative", narrative_max));
            break;
        case MoneyKind::withdrawal:
            put(out, "destinationGlAccountCode", read_gl_code(body, "destinationGlAccountCode"));
            put(out, "narrative", read_text(body, "narrative", narrative_max));
            break;
        case MoneyKind::transfer:
            put(out, "narrative", read_text(body, "narrative", narrative_max));
            break;
        case MoneyKind::fee:
            put(out, "incomeGlAccountCode", read_gl_code(body, "incomeGlAccountCode"));
            if (!out.contains("description") && !body.has_problem("description"))
                body.problem("description", "is required (it is the fee's narrative)");
            break;
    }
    const auto key = body.text("idempotencyKey", TextRule{false, 1, idempotency_key_max, false, false});
    body.finish();
    if (idempotency_header) {
        if (idempotency_header->empty() || idempotency_header->size() > idempotency_key_max)
            throw bad_request("Idempotency-Key: must be 1 to 128 characters");
        if (key && *key != *idempotency_header) throw bad_request("Idempotency-Key header and idempotencyKey field differ");
        out["idempotencyKey"] = *idempotency_header;
    } else {
        put(out, "idempotencyKey", key);
    }
    return out;
}

std::string parse_transfer_batch(const std::string& text, const std::optional<std::string>& idempotency_header) {
    core::transfer_batch::TransferBatch batch;
    try {
        batch = core::transfer_batch::parse_transfer_batch(text);
    } catch (const core::CoreError& e) {
        const std::string message = e.what();
        // The body as a whole (not JSON, not an object, nested too deeply).
        if (message.rfind("request: ", 0) == 0) throw bad_request("Malformed JSON request body");
        throw validation_error(message);
    }
    // The platform's currencies, as POST /v1/transfers checks them.
    for (std::size_t index = 0; index < batch.transfers.size(); ++index) {
        const auto& currency = batch.transfers[index].currency;
        if (!currency) continue;
        const auto& known = currencies();
        if (std::find(known.begin(), known.end(), *currency) != known.end()) continue;
        std::string list;
        for (const auto& code : known) list += (list.empty() ? "" : ", ") + code;
        throw validation_error("transfers[" + std::to_string(index) + "].currency: must be one of " + list);
    }
    if (!idempotency_header) return text;
    if (idempotency_header->empty() || idempotency_header->size() > core::transfer_batch::idempotency_key_length_max)
        throw bad_request("Idempotency-Key: must be 1 to 128 characters");
    if (batch.idempotency_key) {
        if (*batch.idempotency_key != *idempotency_header)
            throw bad_request("Idempotency-Key header and idempotencyKey field differ");
        return text;
    }
    json body = json::parse(text);  // parsed above: cannot fail
    body["idempotencyKey"] = *idempotency_header;
    return body.dump();
}

json parse_fx_rate_set(const std::string& text) {
    const json raw = raw_object(text);
    JsonBody body = body_without(raw, {"rate"});
    json out = json::object();
    const auto from = read_currency(body, "fromCurrency", true);
    const auto to = read_currency(body, "toCurrency", true);
    if (from && to && *from == *to) body.problem("toCurrency", "must differ from fromCurrency");
    put(out, "fromCurrency", from);
    put(out, "toCurrency", to);
    put(out, "effectiveDate", read_date(body, "effectiveDate"));
    // rate: a decimal string ("26.5"), or a JSON number, > 0, at most 10 decimals.
    if (!raw.contains("rate") || raw["rate"].is_null()) {
        body.problem("rate", "is required");
    } else {
        const json& value = raw["rate"];
        std::string rate;
        if (value.is_string()) rate = trim_ascii(value.get<std::string>());
        else if (value.is_number()) rate = value.dump();
        bool positive = false;
        for (char c : rate) positive = positive || (c >= '1' && c <= '9');
        if (!matches(rate, R"(^[0-9]{1,10}(\.[0-9]{1,10})?$)") || !positive)
            body.problem("rate", "must be a positive decimal with at most 10 digits before and 10 after the point");
        else out["rate"] = rate;
    }
    body.finish();
    return out;
}

// ---------------------------------------------------------------- passbooks

json parse_passbook_reprint(const std::string& text) {
    JsonBody body(or_empty_object(text));
    json out = json::object();
    put(out, "reason", read_reason(body, false));
    body.finish();
    return out;
}

json parse_print_confirm(const std::string& text) {
    JsonBody body(text);
    json out = json::object();
    put(out, "lastEntryId", body.integer("lastEntryId", true, 1, std::numeric_limits<std::int64_t>::max()));
    body.finish();
    return out;
}

// ---------------------------------------------------------------- standing orders

json parse_standing_order_create(const std::string& text) {
    const json raw = raw_object(text);
    JsonBody body = body_without(raw, {"amount"});
    json out = json::object();
    const auto source = read_uuid(body, "sourceAccountId", true);
    const auto target = read_uuid(body, "targetAccountId");
    const auto beneficiary = read_uuid(body, "beneficiaryId");
    if (target && beneficiary) body.problem("targetAccountId", "give targetAccountId or beneficiaryId, not both");
    if (!target && !beneficiary && !body.has_problem("targetAccountId") && !body.has_problem("beneficiaryId"))
        body.problem("targetAccountId", "is required (or beneficiaryId)");
    if (source && target && upper(*source) == upper(*target))
        body.problem("targetAccountId", "must differ from sourceAccountId");
    put(out, "sourceAccountId", source);
    put(out, "targetAccountId", target);
    put(out, "beneficiaryId", beneficiary);
    put(out, "amountMinor", read_amount(body, raw));
    put(out, "currency", read_currency(body, "currency"));
    put(out, "frequency", read_enum(body, "frequency", standing_order_frequencies(), true));
    const auto start = read_date(body, "startDate", true);
    const auto end = read_date(body, "endDate");
    if (start && end && *end < *start) body.problem("endDate", "must not be before startDate");
    put(out, "startDate", start);
    put(out, "endDate", end);
    put(out, "description", read_text(body, "description", 200));
    auto reference = read_pattern(body, "reference", 30, "^[A-Za-z0-9-]{1,30}$", "must be 1 to 30 of A-Z 0-9 -");
    if (reference) out["reference"] = upper(*reference);
    body.finish();
    return out;
}

// ---------------------------------------------------------------- query and path parameters

std::optional<std::string> query_enum_ci(const HttpRequest& request, const std::string& name,
                                         const std::vector<std::string>& allowed) {
    auto value = query_text(request, name, 64);
    if (!value) return value;
    const std::string wanted = upper(trim_ascii(*value));
    if (contains(allowed, wanted)) return wanted;
    throw bad_request(name + ": must be one of " + joined(allowed));
}

std::string query_required_date(const HttpRequest& request, const std::string& name) {
    const auto value = query_date(request, name);
    if (!value) throw bad_request(name + ": is required (YYYY-MM-DD)");
    return *value;
}

std::optional<bool> query_bool(const HttpRequest& request, const std::string& name) {
    const auto value = query_text(request, name, 5);
    if (!value) return std::nullopt;
    if (*value == "true") return true;
    if (*value == "false") return false;
    throw bad_request(name + ": must be true or false");
}

std::int64_t days_from_civil_text(const std::string& date) {
    // Howard Hinnant's days_from_civil.
    std::int64_t y = std::stoll(date.substr(0, 4));
    const unsigned m = static_cast<unsigned>(std::stoi(date.substr(5, 2)));
    const unsigned d = static_cast<unsigned>(std::stoi(date.substr(8, 2)));
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void check_date_range(const std::optional<std::string>& from, const std::optional<std::string>& to,
                      std::int64_t max_days) {
    if (!from || !to) return;
    const std::int64_t span = days_from_civil_text(*to) - days_from_civil_text(*from);
    if (span < 0) throw bad_request("from: must not be after to");
    if (span > max_days) throw bad_request("to: must be at most " + std::to_string(max_days) + " days after from");
}

std::string path_currency(const HttpRequest& request, const std::string& name) {
    const auto it = request.path_params.find(name);
    const std::string value = it == request.path_params.end() ? "" : upper(it->second);
    if (!contains(currencies(), value)) throw bad_request(name + " must be one of " + joined(currencies()));
    return value;
}

}  // namespace corebank::httpd::core_banking
