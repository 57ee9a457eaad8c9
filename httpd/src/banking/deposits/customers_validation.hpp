// deposits/customers_validation.hpp: the bodies of customers and the CIF
// (signing mandate, interactions, cases, beneficial owners, beneficiaries);
// the profile is in customer_profile_validation.hpp, KYC in
// kyc_validation.hpp (docs/design/deposits.md). Conventions:
// banking/fields.hpp.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

const std::vector<std::string>& risk_categories();        // LOW, MEDIUM, HIGH, PROHIBITED
const std::vector<std::string>& signing_mandates();       // ANY_ONE, ANY_TWO, ALL

nlohmann::json parse_customer_create(const std::string& body);          // CreateCustomerRequest
nlohmann::json parse_signing_mandate(const std::string& body);          // UpdateSigningMandateRequest
nlohmann::json parse_interaction_create(const std::string& body);       // CreateInteractionRequest
nlohmann::json parse_case_open(const std::string& body);                // OpenCustomerCaseRequest
nlohmann::json parse_case_resolve(const std::string& body);             // ResolveCustomerCaseRequest
nlohmann::json parse_beneficial_owner_add(const std::string& body);     // AddBeneficialOwnerRequest
nlohmann::json parse_beneficiary_add(const std::string& body);          // AddBeneficiaryRequest

}  // namespace corebank::httpd::core_banking
