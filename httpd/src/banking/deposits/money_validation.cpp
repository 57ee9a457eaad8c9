#include "banking/deposits/money_validation.hpp"

#include <algorithm>

#include "api_error.hpp"
#include "banking/fields.hpp"
#include "core/errors.hpp"
#include "core/transfer_batch.hpp"
#include "json_body.hpp"

namespace corebank::httpd::core_banking {

using nlohmann::json;

namespace {

// Header members shared by the money requests (docs/design/deposits.md, Money).
void read_money_header(JsonBody& body, json& out) {
    put(out, "reference", read_text(body, "reference", reference_max));
    put(out, "description", read_text(body, "description", description_max));
    put(out, "valueDate", read_date(body, "valueDate"));
    auto channel = read_pattern(body, "channel", 32, "^[A-Za-z0-9_.-]{1,32}$", "must be 1 to 32 of A-Z a-z 0-9 _ . -");
    if (channel) out["channel"] = upper(*channel);
    read_branch(body, out);
}

}  // namespace

json parse_money(const std::string& text, MoneyKind kind, const std::optional<std::string>& idempotency_header) {
    const json raw = raw_object(text);
    JsonBody body = body_without(raw, {"amount"});
    json out = json::object();
    if (kind == MoneyKind::transfer) {
        const auto from = read_uuid(body, "fromAccountId", true);
        const auto to = read_uuid(body, "toAccountId", true);
        if (from && to && upper(*from) == upper(*to)) body.problem("toAccountId", "must differ from fromAccountId");
        put(out, "fromAccountId", from);
        put(out, "toAccountId", to);
    } else {
        put(out, "accountId", read_uuid(body, "accountId", true));
    }
    put(out, "amountMinor", read_amount(body, raw));
    put(out, "currency", read_currency(body, "currency"));
    read_money_header(body, out);
    switch (kind) {
        case MoneyKind::deposit:
            put(out, "sourceGlAccountCode", read_gl_code(body, "sourceGlAccountCode"));
            put(out, "narrative", read_text(body, "narrative", narrative_max));
            break;
        case MoneyKind::withdrawal:
            put(out, "destinationGlAccountCode", read_gl_code(body, "destinationGlAccountCode"));
            put(out, "narrative", read_text(body, "narrative", narrative_max));
            break;
        case MoneyKind::transfer:
            put(out, "narrative", read_text(body, "narrative", narrative_max));
            break;
        case MoneyKind::fee:
            put(out, "incomeGlAccountCode", read_gl_code(body, "incomeGlAccountCode"));
            if (!out.contains("description") && !body.has_problem("description"))
                body.problem("description", "is required (it is the fee's narrative)");
            break;
    }
    const auto key = body.text("idempotencyKey", TextRule{false, 1, idempotency_key_max, false, false});
    body.finish();
    if (idempotency_header) {
        if (idempotency_header->empty() || idempotency_header->size() > idempotency_key_max)
            throw bad_request("Idempotency-Key: must be 1 to 128 characters");
        if (key && *key != *idempotency_header) throw bad_request("Idempotency-Key header and idempotencyKey field differ");
        out["idempotencyKey"] = *idempotency_header;
    } else {
        put(out, "idempotencyKey", key);
    }
    return out;
}

std::string parse_transfer_batch(const std::string& text, const std::optional<std::string>& idempotency_header) {
    core::transfer_batch::TransferBatch batch;
    try {
        batch = core::transfer_batch::parse_transfer_batch(text);
    } catch (const core::CoreError& e) {
        const std::string message = e.what();
        // The body as a whole (not JSON, not an object, nested too deeply).
        if (message.rfind("request: ", 0) == 0) throw bad_request("Malformed JSON request body");
        throw validation_error(message);
    }
    // The platform's currencies, as POST /v1/transfers checks them.
    for (std::size_t index = 0; index < batch.transfers.size(); ++index) {
        const auto& currency = batch.transfers[index].currency;
        if (!currency) continue;
        const auto& known = currencies();
        if (std::find(known.begin(), known.end(), *currency) != known.end()) continue;
        std::string list;
        for (const auto& code : known) list += (list.empty() ? "" : ", ") + code;
        throw validation_error("transfers[" + std::to_string(index) + "].currency: must be one of " + list);
    }
    if (!idempotency_header) return text;
    if (idempotency_header->empty() || idempotency_header->size() > core::transfer_batch::idempotency_key_length_max)
        throw bad_request("Idempotency-Key: must be 1 to 128 characters");
    if (batch.idempotency_key) {
        if (*batch.idempotency_key != *idempotency_header)
            throw bad_request("Idempotency-Key header and idempotencyKey field differ");
        return text;
    }
    json body = json::parse(text);  // parsed above: cannot fail
    body["idempotencyKey"] = *idempotency_header;
    return body.dump();
}

json parse_fx_rate_set(const std::string& text) {
    const json raw = raw_object(text);
    JsonBody body = body_without(raw, {"rate"});
    json out = json::object();
    const auto from = read_currency(body, "fromCurrency", true);
    const auto to = read_currency(body, "toCurrency", true);
    if (from && to && *from == *to) body.problem("toCurrency", "must differ from fromCurrency");
    put(out, "fromCurrency", from);
    put(out, "toCurrency", to);
    put(out, "effectiveDate", read_date(body, "effectiveDate"));
    // rate: a decimal string ("26.5"), or a JSON number, > 0, at most 10 decimals.
    if (!raw.contains("rate") || raw["rate"].is_null()) {
        body.problem("rate", "is required");
    } else {
        const json& value = raw["rate"];
        std::string rate;
        if (value.is_string()) rate = trim_ascii(value.get<std::string>());
        else if (value.is_number()) rate = value.dump();
        bool positive = false;
        for (char c : rate) positive = positive || (c >= '1' && c <= '9');
        if (!matches(rate, R"(^[0-9]{1,10}(\.[0-9]{1,10})?$)") || !positive)
            body.problem("rate", "must be a positive decimal with at most 10 digits before and 10 after the point");
        else out["rate"] = rate;
    }
    body.finish();
    return out;
}

}  // namespace corebank::httpd::core_banking
