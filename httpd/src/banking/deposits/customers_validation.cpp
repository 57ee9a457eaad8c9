#include "banking/deposits/customers_validation.hpp"

#include "banking/deposits/customer_profile_validation.hpp"
#include "banking/fields.hpp"
#include "json_body.hpp"

namespace corebank::httpd::core_banking {

using nlohmann::json;

const std::vector<std::string>& risk_categories() {
    static const std::vector<std::string> categories = {"LOW", "MEDIUM", "HIGH", "PROHIBITED"};
    return categories;
}

const std::vector<std::string>& signing_mandates() {
    static const std::vector<std::string> mandates = {"ANY_ONE", "ANY_TWO", "ALL"};
    return mandates;
}

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

}  // namespace corebank::httpd::core_banking
