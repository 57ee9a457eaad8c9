// posting_group.cpp: corebank.core_postings, N single posting requests in
// one call (pg/posting_group.hpp; docs/design/posting-group.md).
//
//   corebank.core_postings(requests jsonb, actors uuid[]) returns jsonb
//       requests: [{"operation": "transfer", "request": {...}}, ...] (1..256),
//       the same request objects corebank.core_transfer takes; actors[i] is
//       request i's acting staff member or API key. Answers one element per
//       request: {"status": "POSTED", "response": <TransactionResponse>} or
//       {"status": "ALONE", "reason": "..."}, to be posted alone with the
//       single function, whose answer is then the request's.
//   corebank.core_postings_rows(requests jsonb, actors uuid[])
//       returns table(status text, response text, reason text)
//       the same call, its answers as rows in request order: what the tier
//       reads, with no JSON array built, parsed and taken apart again.
//       response is jsonb's text of the TransactionResponse (POSTED),
//       reason why the request goes alone (ALONE).
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/datums.hpp"
#include "pg/guard.hpp"
#include "pg/jsonb_members.hpp"
#include "pg/posting_group.hpp"
#include "pg/spi.hpp"

namespace {

using namespace corebank;
namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;

std::vector<pg::posting_group::Answer> run_group(FunctionCallInfo fcinfo) {
    const pg::JsonbArgument requests(fcinfo, 0);
    const std::vector<std::optional<std::string>> actors =
        args::require(args::uuid_array(fcinfo, 1, "actors", pg::posting_group::requests_max), "actors");
    spi::connect();
    std::vector<pg::posting_group::Answer> answers = pg::posting_group::run(requests, actors);
    spi::finish();
    return answers;
}

// One row (status, response, reason); every PostgreSQL call through pg_guard.
void emit(ReturnSetInfo* result, const pg::posting_group::Answer& answer) {
    const char* response = answer.posted ? answer.response.c_str() : nullptr;
    const char* reason = answer.posted ? nullptr : answer.reason.c_str();
    pg::pg_guard([&]() noexcept {
        Datum values[3];
        bool nulls[3] = {false, response == nullptr, reason == nullptr};
        values[0] = CStringGetTextDatum(response != nullptr ? "POSTED" : "ALONE");
        values[1] = response == nullptr ? static_cast<Datum>(0) : CStringGetTextDatum(response);
        values[2] = reason == nullptr ? static_cast<Datum>(0) : CStringGetTextDatum(reason);
        tuplestore_putvalues(result->setResult, result->setDesc, values, nulls);
    });
}

}  // namespace

/* SQL function: corebank.core_postings_rows(requests jsonb, actors uuid[]) returns table(status text, response text, reason text) */
COREBANK_FUNCTION(core_postings_rows) {
    const std::vector<pg::posting_group::Answer> answers = run_group(fcinfo);
    pg::pg_guard([&]() noexcept { InitMaterializedSRF(fcinfo, 0); });
    ReturnSetInfo* result = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
    for (const pg::posting_group::Answer& answer : answers) emit(result, answer);
    return static_cast<Datum>(0);
}

/* SQL function: corebank.core_postings(requests jsonb, actors uuid[]) returns jsonb */
COREBANK_FUNCTION(core_postings) {
    const std::string answers = pg::posting_group::answers_json(run_group(fcinfo));
    // Parsed in the caller's memory context, after the SPI connection is gone.
    const char* text = answers.c_str();
    PG_RETURN_DATUM(pg::pg_guard([&]() noexcept { return DirectFunctionCall1(jsonb_in, CStringGetDatum(text)); }));
}
