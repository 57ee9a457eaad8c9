// ledger/transactions_validation.hpp: the manual journal (POST
// /v1/transactions) and the enumerations of a transaction search. Bounds of a
// manual journal are the extension's: extension/core/ledger.hpp. Conventions:
// banking/fields.hpp.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

const std::vector<std::string>& transaction_types();     // the 22 of 01-core-banking.md
const std::vector<std::string>& transaction_statuses();  // PENDING, POSTED, REVERSED, CANCELLED

nlohmann::json parse_manual_journal(const std::string& body);  // CreateTransactionRequest

}  // namespace corebank::httpd::core_banking
