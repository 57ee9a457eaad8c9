#include "banking/ledger/admin_validation.hpp"

#include "api_error.hpp"
#include "banking/fields.hpp"
#include "json_body.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

const TextRule short_text{false, 1, 100, true, false};

}  // namespace

nlohmann::json parse_platform_config_update(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    put(out, "businessTimeZone", body.text("businessTimeZone", TextRule{false, 1, 64, true, false}));
    // todayOverride: a date pins the engine's today; JSON null clears the pin.
    {
        const auto raw = nlohmann::json::parse(text, nullptr, false);
        if (raw.is_object() && raw.contains("todayOverride") && raw["todayOverride"].is_null()) out["todayOverride"] = nullptr;
    }
    put(out, "todayOverride", read_date(body, "todayOverride", false, Blank::refused));
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
    // The tier has always bounded a number at the amount cap (the database allows up to 10^18 - 1).
    put(out, "nextValue", body.integer("nextValue", false, 1, core::limits::amount_minor_max));
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
    put(out, "glAccountId", read_uuid(body, "glAccountId", true, Blank::refused));
    auto period = body.text("period", TextRule{true, 7, 7, true, false});
    if (period && !is_year_month(*period)) {
        body.problem("period", "must be a month (YYYY-MM)");
        period.reset();
    }
    put(out, "period", period);
    put(out, "amountMinor", body.integer("amountMinor", true, 0, core::limits::amount_minor_max));
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

}  // namespace corebank::httpd::core_banking
