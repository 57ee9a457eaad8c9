// validation.hpp: request bodies of the core-banking service, checked field
// by field (types, bounds, enums, dates, UUIDs) and returned as the JSON the
// extension functions take. The extension checks the business rules again;
// this is the first, cheap line that turns bad input into a clear 400.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

const std::vector<std::string>& transaction_types();     // the 22 of 01-core-banking.md
const std::vector<std::string>& transaction_statuses();  // PENDING, POSTED, REVERSED, CANCELLED
const std::vector<std::string>& currencies();            // USD, ZWG

// Bounds of a manual journal are the extension's: extension/core/ledger.hpp.
inline constexpr std::int64_t amount_minor_max = 1'000'000'000'000'000;  // also budgets and numbering

nlohmann::json parse_manual_journal(const std::string& body);         // CreateTransactionRequest
nlohmann::json parse_platform_config_update(const std::string& body); // UpdatePlatformConfigRequest
nlohmann::json parse_branch_scoping_update(const std::string& body);  // UpdateBranchScopingRequest
nlohmann::json parse_numbering_update(const std::string& body);       // UpdateNumberingConfigRequest
nlohmann::json parse_gl_account_create(const std::string& body);     // CreateGlAccountRequest
nlohmann::json parse_gl_account_update(const std::string& body);     // UpdateGlAccountRequest
nlohmann::json parse_gl_budget_upsert(const std::string& body);      // UpsertGlBudgetRequest
nlohmann::json parse_branch_update(const std::string& body);         // UpdateBranchRequest
nlohmann::json parse_api_key_create(const std::string& body);        // CreateApiKeyRequest
// Optional {comment} / required {reason} of approvals.
std::optional<std::string> parse_approval_comment(const std::string& body);
std::string parse_rejection_reason(const std::string& body);

}  // namespace corebank::httpd::core_banking
