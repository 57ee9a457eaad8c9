// deposits_validation.hpp: request bodies and query parameters of issue 4's
// endpoints (customers, CIF, KYC, products, accounts, money, exchange rates,
// passbooks, standing orders), checked field by field and returned as the
// JSON the extension functions take (docs/design/deposits.md).
//
// The database checks everything again; this is the first, cheap line that
// turns bad input into a 400 naming every failing field. Conventions, as in
// validation.hpp: unknown fields are refused (VALIDATION_ERROR "x: unknown
// field"), text is trimmed, money is an integer `amountMinor` (never a float),
// dates are YYYY-MM-DD, ids are UUIDs. Enumerations are case-insensitive on
// input and passed on in upper case.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "http_types.hpp"

namespace corebank::httpd::core_banking {

// The enumerations of the contract.
const std::vector<std::string>& account_types();          // the 10 of 01-core-banking.md
const std::vector<std::string>& account_statuses();       // PENDING_ACTIVATION, ACTIVE, FROZEN, DORMANT, CLOSED
const std::vector<std::string>& risk_categories();        // LOW, MEDIUM, HIGH, PROHIBITED
const std::vector<std::string>& signing_mandates();       // ANY_ONE, ANY_TWO, ALL
const std::vector<std::string>& kyc_document_types();
const std::vector<std::string>& kyc_check_types();
const std::vector<std::string>& standing_order_frequencies();

// Bounds shared with the extension (sql/corebank--1.3--1.4.sql).
inline constexpr std::int64_t deposits_amount_minor_max = 1'000'000'000'000'000;
inline constexpr std::int64_t rate_bp_max = 100'000;
inline constexpr std::int64_t penalty_bp_max = 10'000;
inline constexpr std::int64_t term_days_max = 3660;
inline constexpr std::size_t product_tiers_max = 16;
inline constexpr std::int64_t passbook_lines_max = 500;
inline constexpr std::int64_t passbook_lines_default = 100;
inline constexpr std::int64_t statement_days_max = 366;

// Customers and the CIF.
nlohmann::json parse_customer_create(const std::string& body);          // CreateCustomerRequest
nlohmann::json parse_signing_mandate(const std::string& body);          // UpdateSigningMandateRequest
// PATCH: an omitted member stays out, JSON null and blank strings are kept
// (they clear), identity fields are refused.
nlohmann::json parse_profile_patch(const std::string& body);            // UpdateCustomerProfileRequest
nlohmann::json parse_interaction_create(const std::string& body);       // CreateInteractionRequest
nlohmann::json parse_case_open(const std::string& body);                // OpenCustomerCaseRequest
nlohmann::json parse_case_resolve(const std::string& body);             // ResolveCustomerCaseRequest
nlohmann::json parse_beneficial_owner_add(const std::string& body);     // AddBeneficialOwnerRequest
nlohmann::json parse_beneficiary_add(const std::string& body);          // AddBeneficiaryRequest

// KYC. `provider_mode` is EXTERNAL_KYC_PROVIDER_MODE from the configuration,
// never from the request.
nlohmann::json parse_kyc_risk(const std::string& body);                 // UpdateRiskCategoryRequest
nlohmann::json parse_kyc_review(const std::string& body);               // RecordKycReviewRequest
nlohmann::json parse_kyc_document_add(const std::string& body);         // AddKycDocumentRequest
nlohmann::json parse_kyc_document_verify(const std::string& body);      // VerifyKycDocumentRequest
nlohmann::json parse_kyc_checks(const std::string& body, const std::string& provider_mode);  // RunKycChecksRequest

// Products and accounts.
nlohmann::json parse_product_update(const std::string& body);           // UpdateDepositProductRequest
nlohmann::json parse_account_open(const std::string& body);             // OpenAccountRequest
// {reason}: required for freeze, optional elsewhere; an empty body is {}.
nlohmann::json parse_lifecycle_reason(const std::string& body, bool reason_required);  // AccountLifecycleRequest

// Money. `kind`: deposit, withdrawal, transfer, fee. The Idempotency-Key
// header becomes idempotencyKey (it must equal the field when both are sent).
enum class MoneyKind { deposit, withdrawal, transfer, fee };
nlohmann::json parse_money(const std::string& body, MoneyKind kind, const std::optional<std::string>& idempotency_header);
// CreateTransferBatchRequest (docs/design/batch-transfers.md), checked by
// the database's own parser (core/transfer_batch.hpp): 400 BAD_REQUEST for
// malformed JSON, 400 VALIDATION_ERROR "transfers[i].field: reason". Returns
// the body for corebank.core_transfer_batch, with the Idempotency-Key header
// as idempotencyKey.
std::string parse_transfer_batch(const std::string& body, const std::optional<std::string>& idempotency_header);
nlohmann::json parse_fx_rate_set(const std::string& body);              // SetExchangeRateRequest

// Passbooks.
nlohmann::json parse_passbook_reprint(const std::string& body);         // ReprintPassbookRequest
nlohmann::json parse_print_confirm(const std::string& body);            // PrintConfirmRequest

// Standing orders.
nlohmann::json parse_standing_order_create(const std::string& body);    // CreateStandingOrderRequest

// Query parameters: an enumeration, case-insensitive, returned upper case;
// a required date; a date range [from, to] of at most `max_days` days
// (400 BAD_REQUEST naming the parameter).
std::optional<std::string> query_enum_ci(const HttpRequest& request, const std::string& name,
                                         const std::vector<std::string>& allowed);
std::string query_required_date(const HttpRequest& request, const std::string& name);
std::optional<bool> query_bool(const HttpRequest& request, const std::string& name);
void check_date_range(const std::optional<std::string>& from, const std::optional<std::string>& to,
                      std::int64_t max_days);
// A currency code in a path segment (USD or ZWG, case-insensitive).
std::string path_currency(const HttpRequest& request, const std::string& name);

// Days from 1970-01-01 of a valid YYYY-MM-DD (for range checks).
std::int64_t days_from_civil_text(const std::string& date);

}  // namespace corebank::httpd::core_banking
