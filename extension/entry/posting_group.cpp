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

}  // namespace

/* SQL function: corebank.core_postings(requests jsonb, actors uuid[]) returns jsonb */
COREBANK_FUNCTION(core_postings) {
    const pg::JsonbArgument requests(fcinfo, 0);
    const std::vector<std::optional<std::string>> actors =
        args::require(args::uuid_array(fcinfo, 1, "actors", pg::posting_group::requests_max), "actors");
    spi::connect();
    const std::string answers = pg::posting_group::run(requests, actors);
    spi::finish();
    // Parsed in the caller's memory context, after the SPI connection is gone.
    const char* text = answers.c_str();
    PG_RETURN_DATUM(pg::pg_guard([&]() noexcept { return DirectFunctionCall1(jsonb_in, CStringGetDatum(text)); }));
}
