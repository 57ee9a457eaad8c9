#include "banking/validation.hpp"

#include "api_error.hpp"
#include "core/ledger.hpp"
#include "json_body.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

namespace ledger = corebank::core::ledger;

const TextRule short_text{false, 1, 100, true, false};
// The extension's limits (extension/core/ledger.hpp), so both layers agree.
const TextRule description_text{true, 1, ledger::description_length_max, true, false};
const TextRule narrative_text{false, 0, ledger::narrative_length_max, true, false};

void put(nlohmann::json& out, const char* name, const std::optional<std::string>& value) {
    if (value) out[name] = *value;
}
void put(nlohmann::json& out, const char* name, const std::optional<std::int64_t>& value) {
    if (value) out[name] = *value;
}
void put(nlohmann::json& out, const char* name, const std::optional<bool>& value) {
    if (value) out[name] = *value;
}

std::optional<std::string> read_uuid(JsonBody& body, const char* name, bool required) {
    auto value = body.text(name, TextRule{required, 1, 36, true, false});
    if (value && !is_uuid_text(*value)) {
        body.problem(name, "must be a UUID");
        return std::nullopt;
    }
    return value;
}

std::optional<std::string> read_date(JsonBody& body, const char* name, bool required) {
    auto value = body.text(name, TextRule{required, 1, 10, true, false});
    if (value && !is_iso_date(*value)) {
        body.problem(name, "must be a date (YYYY-MM-DD)");
        return std::nullopt;
    }
    return value;
}

nlohmann::json parse_journal_entry(const nlohmann::json& item, const std::string& path, JsonBody& parent) {
    JsonBody entry(item, path);
    nlohmann::json out = nlohmann::json::object();
    const auto gl_id = read_uuid(entry, "glAccountId", false);
    const auto gl_code = entry.text("glAccountCode", TextRule{false, 1, ledger::gl_code_length_max, true, false});
    const auto account = read_uuid(entry, "accountId", false);
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

const std::vector<std::string>& currencies() {
    static const std::vector<std::string> codes = {"USD", "ZWG"};
    return codes;
}

nlohmann::json parse_manual_journal(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    put(out, "reference", body.text("reference", TextRule{false, 1, ledger::reference_length_max, true, false}));
    put(out, "type", body.one_of("type", false, transaction_types()));
    put(out, "description", body.text("description", description_text));
    put(out, "valueDate", read_date(body, "valueDate", false));
    put(out, "branchId", read_uuid(body, "branchId", false));
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

nlohmann::json parse_platform_config_update(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    put(out, "businessTimeZone", body.text("businessTimeZone", TextRule{false, 1, 64, true, false}));
    // todayOverride: a date pins the engine's today; JSON null clears the pin.
    {
        const auto raw = nlohmann::json::parse(text, nullptr, false);
        if (raw.is_object() && raw.contains("todayOverride") && raw["todayOverride"].is_null()) out["todayOverride"] = nullptr;
    }
    put(out, "todayOverride", read_date(body, "todayOverride", false));
    put(out, "makerCheckerLapseHours", body.integer("makerCheckerLapseHours", false, 1, 24 * 365));
    body.finish();
    if (out.empty()) throw validation_error("body: at least one of businessTimeZone, todayOverride, makerCheckerLapseHours is required");
    return out;
}

nlohmann::json parse_branch_scoping_update(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    put(out, "enabled", body.boolean("enabled", true));
    body.finish();
    return out;
}

nlohmann::json parse_numbering_update(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    auto prefix = body.text("prefix", TextRule{false, 0, 10, true, false});
    if (prefix && prefix->find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") != std::string::npos) {
        body.problem("prefix", "may hold only A-Z, 0-9 and '-'");
        prefix.reset();
    }
    put(out, "prefix", prefix);
    put(out, "padding", body.integer("padding", false, 4, 20));
    put(out, "nextValue", body.integer("nextValue", false, 1, amount_minor_max));
    body.finish();
    if (out.empty()) throw validation_error("body: at least one of prefix, padding, nextValue is required");
    return out;
}

nlohmann::json parse_gl_account_create(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    auto code = body.text("code", TextRule{true, 1, 20, true, false});
    if (code && code->find_first_not_of("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.") != std::string::npos) {
        body.problem("code", "may hold only digits, A-Z, '-' and '.'");
        code.reset();
    }
    put(out, "code", code);
    put(out, "name", body.text("name", TextRule{true, 1, 100, true, false}));
    put(out, "type", body.one_of("type", true, {"ASSET", "LIABILITY", "EQUITY", "INCOME", "EXPENSE"}));
    put(out, "currency", body.one_of("currency", false, {"USD"}));
    put(out, "allowManualPosting", body.boolean("allowManualPosting", false));
    body.finish();
    return out;
}

nlohmann::json parse_gl_account_update(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    put(out, "code", body.text("code", TextRule{false, 1, 20, true, false}));
    put(out, "name", body.text("name", TextRule{false, 1, 100, true, false}));
    put(out, "type", body.one_of("type", false, {"ASSET", "LIABILITY", "EQUITY", "INCOME", "EXPENSE"}));
    put(out, "active", body.boolean("active", false));
    put(out, "allowManualPosting", body.boolean("allowManualPosting", false));
    body.finish();
    if (out.empty()) throw validation_error("body: at least one field to change is required");
    return out;
}

nlohmann::json parse_gl_budget_upsert(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    put(out, "glAccountId", read_uuid(body, "glAccountId", true));
    auto period = body.text("period", TextRule{true, 7, 7, true, false});
    if (period && !is_year_month(*period)) {
        body.problem("period", "must be a month (YYYY-MM)");
        period.reset();
    }
    put(out, "period", period);
    put(out, "amountMinor", body.integer("amountMinor", true, 0, amount_minor_max));
    put(out, "note", body.text("note", TextRule{false, 0, 500, true, false}));
    body.finish();
    return out;
}

nlohmann::json parse_branch_update(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    put(out, "name", body.text("name", TextRule{false, 1, 100, true, false}));
    put(out, "city", body.text("city", short_text));
    put(out, "address", body.text("address", TextRule{false, 0, 300, true, false}));
    put(out, "phone", body.text("phone", TextRule{false, 0, 32, true, false}));
    put(out, "active", body.boolean("active", false));
    body.finish();
    if (out.empty()) throw validation_error("body: at least one field to change is required");
    return out;
}

nlohmann::json parse_api_key_create(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    put(out, "name", body.text("name", TextRule{true, 1, 100, true, false}));
    const auto scopes = body.array("scopes", true, 1, 3);
    if (scopes) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& s : *scopes) {
            if (!s.is_string() || (s != "read" && s != "write" && s != "admin")) {
                body.problem("scopes", "each scope must be one of read, write, admin");
                break;
            }
            list.push_back(s);
        }
        out["scopes"] = list;
    }
    put(out, "rateLimitPerMinute", body.integer("rateLimitPerMinute", false, 1, 1'000'000));
    body.finish();
    return out;
}

std::optional<std::string> parse_approval_comment(const std::string& text) {
    if (trim_ascii(text).empty()) return std::nullopt;
    JsonBody body(text);
    auto comment = body.text("comment", TextRule{false, 0, 1000, true, false});
    body.finish();
    return comment;
}

std::string parse_rejection_reason(const std::string& text) {
    JsonBody body(text);
    auto reason = body.text("reason", TextRule{true, 1, 1000, true, true});
    body.finish();
    return *reason;
}

}  // namespace corebank::httpd::core_banking
