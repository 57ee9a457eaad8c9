#include "banking/deposits/products_validation.hpp"

#include "api_error.hpp"
#include "banking/fields.hpp"
#include "json_body.hpp"

namespace corebank::httpd::core_banking {

using nlohmann::json;

json parse_product_update(const std::string& text) {
    const json raw = raw_object(text);
    JsonBody body = body_without(raw, {"dormancyDays", "code", "accountType", "currency", "internal"});
    json out = json::object();
    for (const char* frozen : {"code", "accountType", "currency", "internal"})
        if (raw.contains(frozen)) body.problem(frozen, "cannot be changed");
    put(out, "name", read_text(body, "name", 100));
    put(out, "interestMethod", read_enum(body, "interestMethod", {"NONE", "SIMPLE", "COMPOUND"}));
    put(out, "annualRateBp", body.integer("annualRateBp", false, 0, rate_bp_max));
    for (const char* amount : {"minimumBalanceMinor", "minimumOpeningMinor", "monthlyFeeMinor", "withdrawalFeeMinor"})
        put(out, amount, body.integer(amount, false, 0, core::limits::amount_minor_max));
    put(out, "termDays", body.integer("termDays", false, 1, term_days_max));
    put(out, "earlyWithdrawalPenaltyBp", body.integer("earlyWithdrawalPenaltyBp", false, 0, penalty_bp_max));
    put(out, "active", body.boolean("active", false));
    // dormancyDays: null means never dormant, so null is a value here.
    if (raw.contains("dormancyDays")) {
        const json& days = raw["dormancyDays"];
        if (days.is_null()) out["dormancyDays"] = nullptr;
        else if (!days.is_number_integer()) body.problem("dormancyDays", "must be an integer or null");
        else if (days.is_number_unsigned() && days.get<std::uint64_t>() > static_cast<std::uint64_t>(term_days_max))
            body.problem("dormancyDays", "must be between 1 and " + std::to_string(term_days_max));
        else if (days.get<std::int64_t>() < 1 || days.get<std::int64_t>() > term_days_max)
            body.problem("dormancyDays", "must be between 1 and " + std::to_string(term_days_max));
        else out["dormancyDays"] = days.get<std::int64_t>();
    }
    if (const auto tiers = body.array("tiers", false, 0, product_tiers_max)) {
        json list = json::array();
        std::int64_t previous = -1;
        for (std::size_t i = 0; i < tiers->size(); ++i) {
            JsonBody tier((*tiers)[i], "tiers[" + std::to_string(i) + "]");
            const auto from = tier.integer("fromMinor", true, 0, core::limits::amount_minor_max);
            const auto rate = tier.integer("rateBp", true, 0, rate_bp_max);
            if (from && ((i == 0 && *from != 0) || *from <= previous))
                tier.problem("fromMinor", "the first tier starts at 0 and each starts above the previous");
            if (from) previous = *from;
            if (from && rate) list.push_back({{"fromMinor", *from}, {"rateBp", *rate}});
            body.absorb(tier);
        }
        out["tiers"] = list;
    }
    body.finish();
    if (raw.empty()) throw validation_error("body: at least one field to change is required");
    return out;
}

}  // namespace corebank::httpd::core_banking
