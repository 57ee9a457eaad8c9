// deposits/kyc_validation.hpp: the KYC bodies of a customer: risk category,
// reviews, documents and checks (docs/design/deposits.md). Conventions:
// banking/fields.hpp.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

const std::vector<std::string>& kyc_document_types();
const std::vector<std::string>& kyc_check_types();

// `provider_mode` is EXTERNAL_KYC_PROVIDER_MODE from the configuration, never
// from the request.
nlohmann::json parse_kyc_risk(const std::string& body);                 // UpdateRiskCategoryRequest
nlohmann::json parse_kyc_review(const std::string& body);               // RecordKycReviewRequest
nlohmann::json parse_kyc_document_add(const std::string& body);         // AddKycDocumentRequest
nlohmann::json parse_kyc_document_verify(const std::string& body);      // VerifyKycDocumentRequest
nlohmann::json parse_kyc_checks(const std::string& body, const std::string& provider_mode);  // RunKycChecksRequest

}  // namespace corebank::httpd::core_banking
