// interest_arith.cpp: the SQL faces of the pure interest and money
// arithmetic (core/interest.hpp), for the PL/pgSQL daily run and the money
// functions. Micro-minor amounts cross as decimal text, since they can
// exceed a bigint.
//
//   corebank_internal.interest_daily_micro(balance, accrued_micro, method, rate_bp, tiers) -> text
//   corebank_internal.interest_micro_to_minor(micro) -> bigint (half-even)
//   corebank_internal.interest_effective_rate_bp(balance, rate_bp, tiers) -> int
//   corebank_internal.money_apply_bp(amount, bp) -> bigint (half-even)
//   corebank_internal.fx_convert(amount, rate) -> bigint (half-even), NULL when unusable
// nlohmann first: PostgreSQL's port.h redefines snprintf, which it uses.
#include <nlohmann/json.hpp>

#include "core/interest.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/datums.hpp"

namespace {

using namespace corebank;
namespace args = corebank::pg::args;
namespace interest = corebank::core::interest;
using nlohmann::json;

std::int64_t int8_argument(FunctionCallInfo fcinfo, int index, const char* name) {
    if (PG_ARGISNULL(index)) args::throw_validation(std::string(name) + ": is required");
    return PG_GETARG_INT64(index);
}

interest::Micro micro_argument(FunctionCallInfo fcinfo, int index, const char* name) {
    const std::optional<std::string> text = args::text(fcinfo, index);
    if (!text) return 0;
    const std::optional<interest::Micro> micro = interest::micro_from_text(*text);
    if (!micro) args::throw_validation(std::string(name) + ": must be a whole number of micro-minor units");
    return *micro;
}

std::int32_t rate_argument(FunctionCallInfo fcinfo, int index) {
    const std::int32_t rate_bp = args::int4(fcinfo, index).value_or(0);
    if (rate_bp < 0 || rate_bp > interest::rate_bp_max) {
        args::throw_validation("rate_bp: must be 0 to " + std::to_string(interest::rate_bp_max));
    }
    return rate_bp;
}

// [{fromMinor, rateBp}, ...] in order; NULL is no tiers.
std::vector<interest::Tier> tiers_argument(FunctionCallInfo fcinfo, int index) {
    std::vector<interest::Tier> tiers;
    const std::optional<std::string> text = args::jsonb_text(fcinfo, index);
    if (!text) return tiers;
    const json root = json::parse(*text, nullptr, false);
    if (root.is_null()) return tiers;
    if (!root.is_array()) args::throw_validation("tiers: must be an array");
    for (const json& item : root) {
        const auto from = item.is_object() ? item.find("fromMinor") : item.end();
        const auto rate = item.is_object() ? item.find("rateBp") : item.end();
        if (from == item.end() || rate == item.end() || !from->is_number_integer() || !rate->is_number_integer()) {
            args::throw_validation("tiers: each needs integer fromMinor and rateBp");
        }
        tiers.push_back(interest::Tier{from->get<std::int64_t>(), rate->get<std::int32_t>()});
    }
    if (const std::optional<std::string> problem = interest::tiers_problem(tiers)) args::throw_validation("tiers: " + *problem);
    return tiers;
}

void check_balance(std::int64_t balance_minor) {
    if (balance_minor > interest::amount_minor_max || balance_minor < -interest::amount_minor_max) {
        args::throw_validation("balance_minor: is outside +-" + std::to_string(interest::amount_minor_max));
    }
}

}  // namespace

/* SQL function: corebank_internal.interest_daily_micro(balance_minor bigint, accrued_micro text, method text, rate_bp int, tiers jsonb) returns text */
COREBANK_FUNCTION(interest_daily_micro) {
    const std::int64_t balance_minor = int8_argument(fcinfo, 0, "balance_minor");
    const interest::Micro accrued = micro_argument(fcinfo, 1, "accrued_micro");
    const std::string method_text = args::require(args::text(fcinfo, 2), "method");
    const std::int32_t rate_bp = rate_argument(fcinfo, 3);
    const std::vector<interest::Tier> tiers = tiers_argument(fcinfo, 4);
    const std::optional<interest::Method> method = interest::parse_method(method_text);
    if (!method) args::throw_validation("method: must be NONE, SIMPLE or COMPOUND");
    check_balance(balance_minor);
    const interest::Micro accrual = interest::daily_accrual(balance_minor, accrued, *method, rate_bp, tiers);
    PG_RETURN_DATUM(pg::text_datum(interest::micro_to_text(accrual)));
}

/* SQL function: corebank_internal.interest_micro_to_minor(micro text) returns bigint */
COREBANK_FUNCTION(interest_micro_to_minor) {
    const interest::Micro micro = micro_argument(fcinfo, 0, "micro");
    const interest::Micro bound = static_cast<interest::Micro>(interest::amount_minor_max) * interest::micro_per_minor;
    if (micro > bound || micro < -bound) args::throw_validation("micro: is outside +-10^21");
    PG_RETURN_INT64(interest::micro_to_minor(micro));
}

/* SQL function: corebank_internal.interest_effective_rate_bp(balance_minor bigint, rate_bp int, tiers jsonb) returns int */
COREBANK_FUNCTION(interest_effective_rate_bp) {
    const std::int64_t balance_minor = int8_argument(fcinfo, 0, "balance_minor");
    const std::int32_t rate_bp = rate_argument(fcinfo, 1);
    const std::vector<interest::Tier> tiers = tiers_argument(fcinfo, 2);
    check_balance(balance_minor);
    PG_RETURN_INT32(interest::effective_rate_bp(balance_minor, rate_bp, tiers));
}

/* SQL function: corebank_internal.money_apply_bp(amount_minor bigint, bp int) returns bigint */
COREBANK_FUNCTION(money_apply_bp) {
    const std::int64_t amount_minor = int8_argument(fcinfo, 0, "amount_minor");
    const std::int32_t bp = args::require(args::int4(fcinfo, 1), "bp");
    // The SQL argument is corebank.amount_minor, whose CHECK refuses first;
    // this guards a direct call of the C symbol.
    if (amount_minor < 0 || amount_minor > interest::amount_minor_max) {
        args::throw_validation("amount_minor: is outside 0.." + std::to_string(interest::amount_minor_max));
    }
    if (bp < 0 || bp > interest::rate_bp_max) {
        args::throw_validation("bp: must be 0 to " + std::to_string(interest::rate_bp_max));
    }
    PG_RETURN_INT64(interest::apply_bp(amount_minor, bp));
}

/* SQL function: corebank_internal.fx_convert(amount_minor bigint, rate text) returns bigint */
COREBANK_FUNCTION(fx_convert) {
    const std::int64_t amount_minor = int8_argument(fcinfo, 0, "amount_minor");
    const std::string rate = args::require(args::text(fcinfo, 1), "rate");
    const std::optional<std::int64_t> converted = interest::fx_convert(amount_minor, rate);
    if (!converted) PG_RETURN_NULL();
    PG_RETURN_INT64(*converted);
}
