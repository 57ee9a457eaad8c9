// parked_changes.cpp: the SQL faces of maker-checker (pg/parked_changes.hpp).
//
//   corebank.parked_change_create   park a change (validated per operation)
//   corebank.parked_change_approve  apply it, same transaction (also
//                                   corebank.core_approval_approve)
//   corebank.parked_change_reject   decide it without applying (also
//                                   corebank.core_approval_reject)
//   corebank.parked_changes_lapse   maintenance: store LAPSED on overdue rows
// Each returns the ParkedChangeResponse of the change.
#include "core/ledger.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/parked_changes.hpp"
#include "pg/spi.hpp"
#include "pg/values.hpp"

namespace {

using namespace corebank;
namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;
namespace parked = corebank::pg::parked;

constexpr std::size_t operation_length_max = 64;
constexpr std::size_t entity_type_length_max = 40;
constexpr std::size_t decision_text_length_max = 1000;
constexpr std::int32_t lapse_batch_rows = 10000;

std::string uuid_argument(FunctionCallInfo fcinfo, int index, const char* name) {
    return pg::uuid_to_string(args::require(args::uuid(fcinfo, index), name));
}

}  // namespace

/* SQL function: corebank.parked_change_create(operation text, entity_type text, entity_id text, payload jsonb, summary text, maker_id uuid) returns jsonb */
COREBANK_FUNCTION(parked_change_create) {
    parked::NewChange change;
    change.operation = args::require(args::text(fcinfo, 0), "operation");
    change.entity_type = args::require(args::text(fcinfo, 1), "entity_type");
    change.entity_id = args::require(args::text(fcinfo, 2), "entity_id");
    change.payload_json = args::jsonb_text(fcinfo, 3).value_or("{}");
    change.summary = args::require(args::blank_to_null(args::text(fcinfo, 4)), "summary");
    change.maker_id = uuid_argument(fcinfo, 5, "maker_id");
    args::check_length(change.operation, "operation", operation_length_max);
    args::check_length(change.entity_type, "entity_type", entity_type_length_max);
    if (change.payload_json.empty() || change.payload_json.front() != '{') {
        args::throw_validation("payload: must be a JSON object");
    }

    spi::connect();
    const std::string change_id = parked::create(change);
    const Datum rendered = parked::render(change_id);
    spi::finish();
    PG_RETURN_DATUM(rendered);
}

/* SQL function: corebank.parked_change_approve(id uuid, checker_id uuid, comment text) returns jsonb; also corebank.core_approval_approve(id uuid, actor uuid, comment text) */
COREBANK_FUNCTION(parked_change_approve) {
    const std::string change_id = uuid_argument(fcinfo, 0, "id");
    const std::string checker_id = uuid_argument(fcinfo, 1, "checker");
    const std::optional<std::string> comment = args::blank_to_null(args::text(fcinfo, 2));
    args::check_length(comment, "comment", decision_text_length_max);

    spi::connect();
    parked::approve(change_id, checker_id, comment);
    const Datum rendered = parked::render(change_id);
    spi::finish();
    PG_RETURN_DATUM(rendered);
}

/* SQL function: corebank.parked_change_reject(id uuid, checker_id uuid, reason text) returns jsonb; also corebank.core_approval_reject(id uuid, actor uuid, reason text) */
COREBANK_FUNCTION(parked_change_reject) {
    const std::string change_id = uuid_argument(fcinfo, 0, "id");
    const std::string checker_id = uuid_argument(fcinfo, 1, "checker");
    const std::string reason = args::require(args::blank_to_null(args::text(fcinfo, 2)), "reason");
    args::check_length(reason, "reason", decision_text_length_max);

    spi::connect();
    parked::reject(change_id, checker_id, reason);
    const Datum rendered = parked::render(change_id);
    spi::finish();
    PG_RETURN_DATUM(rendered);
}

/* SQL function: corebank.parked_changes_lapse() returns int */
COREBANK_FUNCTION(parked_changes_lapse) {
    spi::connect();
    const std::int64_t lapsed = parked::lapse_overdue(lapse_batch_rows);
    spi::finish();
    PG_RETURN_INT32(static_cast<int32>(lapsed));
}
