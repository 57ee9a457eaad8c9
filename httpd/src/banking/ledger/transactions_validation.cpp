#include "banking/ledger/transactions_validation.hpp"

#include "banking/fields.hpp"
#include "core/ledger.hpp"
#include "json_body.hpp"

namespace corebank::httpd::core_banking {

namespace {

namespace ledger = corebank::core::ledger;

// The extension's limits (extension/core/ledger.hpp), so both layers agree.
const TextRule description_text{true, 1, ledger::description_length_max, true, false};
const TextRule narrative_text{false, 0, ledger::narrative_length_max, true, false};

nlohmann::json parse_journal_entry(const nlohmann::json& item, const std::string& path, JsonBody& parent) {
    JsonBody entry(item, path);
    nlohmann::json out = nlohmann::json::object();
    const auto gl_id = read_uuid(entry, "glAccountId", false, Blank::refused);
    const auto gl_code = entry.text("glAccountCode", TextRule{false, 1, ledger::gl_code_length_max, true, false});
    const auto account = read_uuid(entry, "accountId", false, Blank::refused);
    const auto currency = entry.one_of("currency", false, currencies());
    const auto side = entry.one_of("side", true, {"DEBIT", "CREDIT"});
    const auto amount = entry.integer("amountMinor", true, 1, ledger::amount_minor_max);
    const auto narrative = entry.text("narrative", narrative_text);
    if (!gl_id && !gl_code && !account && !entry.has_problem("glAccountId") && !entry.has_problem("glAccountCode") &&
        !entry.has_problem("accountId"))
        entry.problem("glAccountId", "one of glAccountId, glAccountCode or accountId is required");
    if (gl_code && !gl_id && !currency && !entry.has_problem("currency"))
        entry.problem("currency", "is required with glAccountCode");
    put(out, "glAccountId", gl_id);
    put(out, "glAccountCode", gl_code);
    put(out, "accountId", account);
    put(out, "currency", currency);
    put(out, "side", side);
    put(out, "amountMinor", amount);
    put(out, "narrative", narrative);
    parent.absorb(entry);
    return out;
}

}  // namespace

const std::vector<std::string>& transaction_types() {
    static const std::vector<std::string> types = {
        "DEPOSIT",        "WITHDRAWAL",           "TRANSFER",       "INTEREST_ACCRUAL",    "FEE",
        "LOAN_DISBURSEMENT", "LOAN_REPAYMENT",    "ADJUSTMENT",     "ZIPIT_SEND",          "ZIPIT_RECEIVE",
        "RTGS_SEND",      "RTGS_RECEIVE",         "MOBILE_MONEY_SEND", "MOBILE_MONEY_RECEIVE", "SALARY_PAYMENT",
        "BULK_PAYMENT",   "BILL_PAYMENT",         "PAYMENT_REVERSAL", "INVESTMENT_PURCHASE", "INVESTMENT_MATURITY",
        "INVESTMENT_SALE", "INVESTMENT_INTEREST"};
    return types;
}

const std::vector<std::string>& transaction_statuses() {
    static const std::vector<std::string> statuses = {"PENDING", "POSTED", "REVERSED", "CANCELLED"};
    return statuses;
}

nlohmann::json parse_manual_journal(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    put(out, "reference", body.text("reference", TextRule{false, 1, ledger::reference_length_max, true, false}));
    put(out, "type", body.one_of("type", false, transaction_types()));
    put(out, "description", body.text("description", description_text));
    put(out, "valueDate", read_date(body, "valueDate", false, Blank::refused));
    put(out, "branchId", read_uuid(body, "branchId", false, Blank::refused));
    put(out, "channel", body.text("channel", TextRule{false, 1, ledger::channel_length_max, true, false}));
    put(out, "idempotencyKey",
        body.text("idempotencyKey", TextRule{false, 1, ledger::idempotency_key_length_max, false, false}));
    const auto entries = body.array("entries", true, ledger::lines_min, ledger::lines_max);
    if (entries) {
        nlohmann::json lines = nlohmann::json::array();
        for (std::size_t i = 0; i < entries->size(); ++i)
            lines.push_back(parse_journal_entry((*entries)[i], "entries[" + std::to_string(i) + "]", body));
        out["entries"] = std::move(lines);
    }
    body.finish();
    return out;
}

}  // namespace corebank::httpd::core_banking
