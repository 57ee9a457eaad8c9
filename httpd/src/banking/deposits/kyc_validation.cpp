#include "banking/deposits/kyc_validation.hpp"

#include <algorithm>

#include "banking/deposits/customers_validation.hpp"
#include "banking/fields.hpp"
#include "json_body.hpp"

namespace corebank::httpd::core_banking {

using nlohmann::json;

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

}  // namespace corebank::httpd::core_banking
