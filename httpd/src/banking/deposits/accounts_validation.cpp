#include "banking/deposits/accounts_validation.hpp"

#include "banking/fields.hpp"
#include "json_body.hpp"

namespace corebank::httpd::core_banking {

using nlohmann::json;

const std::vector<std::string>& account_types() {
    static const std::vector<std::string> types = {"SAVINGS", "CURRENT", "FIXED_DEPOSIT", "CALL_DEPOSIT", "MONEY_MARKET",
                                                   "TRUST",   "ESCROW",  "NOSTRO",        "SUSPENSE",     "GL"};
    return types;
}

const std::vector<std::string>& account_statuses() {
    static const std::vector<std::string> statuses = {"PENDING_ACTIVATION", "ACTIVE", "FROZEN", "DORMANT", "CLOSED"};
    return statuses;
}

json parse_account_open(const std::string& text) {
    const json raw = raw_object(text);
    JsonBody body = body_without(raw, {"initialDeposit"});
    json out = json::object();
    put(out, "customerId", read_uuid(body, "customerId"));
    const auto product_id = read_uuid(body, "productId");
    auto product_code = read_pattern(body, "productCode", 20, "^[A-Za-z0-9-]{2,20}$", "must be a product code such as SAV-STD");
    if (product_code) product_code = upper(*product_code);
    if (!product_id && !product_code && !body.has_problem("productId") && !body.has_problem("productCode"))
        body.problem("productCode", "is required (or productId)");
    if (product_id && product_code) body.problem("productCode", "give productCode or productId, not both");
    put(out, "productId", product_id);
    put(out, "productCode", product_code);
    put(out, "name", read_text(body, "name", 200));
    put(out, "glAccountCode", read_gl_code(body, "glAccountCode"));
    read_branch(body, out);
    if (raw.contains("initialDeposit") && !raw["initialDeposit"].is_null()) {
        json given = raw["initialDeposit"];
        if (given.is_object()) given.erase("amount");
        JsonBody deposit(given, "initialDeposit");
        json initial = json::object();
        if (raw["initialDeposit"].is_object()) {
            put(initial, "amountMinor", read_amount(deposit, raw["initialDeposit"]));
            put(initial, "reference", read_text(deposit, "reference", reference_max));
            put(initial, "description", read_text(deposit, "description", description_max));
            put(initial, "narrative", read_text(deposit, "narrative", narrative_max));
            auto channel = read_pattern(deposit, "channel", 32, "^[A-Za-z0-9_.-]{1,32}$",
                                        "must be 1 to 32 of A-Z a-z 0-9 _ . -");
            if (channel) initial["channel"] = upper(*channel);
            put(initial, "sourceGlAccountCode", read_gl_code(deposit, "sourceGlAccountCode"));
        }
        body.absorb(deposit);
        out["initialDeposit"] = initial;
    }
    body.finish();
    return out;
}

json parse_lifecycle_reason(const std::string& text, bool reason_required) {
    JsonBody body(or_empty_object(text));
    json out = json::object();
    put(out, "reason", read_reason(body, reason_required));
    body.finish();
    return out;
}

}  // namespace corebank::httpd::core_banking
