// deposits/money_validation.hpp: deposits, withdrawals, transfers, fees,
// batches of transfers and exchange rates (docs/design/deposits.md, Money).
// Conventions: banking/fields.hpp.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

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

}  // namespace corebank::httpd::core_banking
