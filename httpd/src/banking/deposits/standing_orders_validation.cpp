#include "banking/deposits/standing_orders_validation.hpp"

#include "banking/fields.hpp"
#include "json_body.hpp"

namespace corebank::httpd::core_banking {

using nlohmann::json;

const std::vector<std::string>& standing_order_frequencies() {
    static const std::vector<std::string> frequencies = {"DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "YEARLY"};
    return frequencies;
}

json parse_standing_order_create(const std::string& text) {
    const json raw = raw_object(text);
    JsonBody body = body_without(raw, {"amount"});
    json out = json::object();
    const auto source = read_uuid(body, "sourceAccountId", true);
    const auto target = read_uuid(body, "targetAccountId");
    const auto beneficiary = read_uuid(body, "beneficiaryId");
    if (target && beneficiary) body.problem("targetAccountId", "give targetAccountId or beneficiaryId, not both");
    if (!target && !beneficiary && !body.has_problem("targetAccountId") && !body.has_problem("beneficiaryId"))
        body.problem("targetAccountId", "is required (or beneficiaryId)");
    if (source && target && upper(*source) == upper(*target))
        body.problem("targetAccountId", "must differ from sourceAccountId");
    put(out, "sourceAccountId", source);
    put(out, "targetAccountId", target);
    put(out, "beneficiaryId", beneficiary);
    put(out, "amountMinor", read_amount(body, raw));
    put(out, "currency", read_currency(body, "currency"));
    put(out, "frequency", read_enum(body, "frequency", standing_order_frequencies(), true));
    const auto start = read_date(body, "startDate", true);
    const auto end = read_date(body, "endDate");
    if (start && end && *end < *start) body.problem("endDate", "must not be before startDate");
    put(out, "startDate", start);
    put(out, "endDate", end);
    put(out, "description", read_text(body, "description", 200));
    auto reference = read_pattern(body, "reference", 30, "^[A-Za-z0-9-]{1,30}$", "must be 1 to 30 of A-Z 0-9 -");
    if (reference) out["reference"] = upper(*reference);
    body.finish();
    return out;
}

}  // namespace corebank::httpd::core_banking
