// transaction_render.cpp: the SQL face of the C++ TransactionResponse
// renderer (pg/transaction_render.hpp), for the pgTAP tests that hold it
// equal to corebank_internal.transaction_json for every kind of transaction.
//
//   corebank_internal.transaction_render(transaction_id uuid) returns jsonb
//       STRICT; NULL for an unknown id, as transaction_json answers.
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/spi.hpp"
#include "pg/transaction_render.hpp"
#include "pg/values.hpp"

namespace {

namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;
namespace render = corebank::pg::render;

}  // namespace

/* SQL function: corebank_internal.transaction_render(transaction_id uuid) returns jsonb */
COREBANK_FUNCTION(transaction_render) {
    const std::string transaction_id =
        corebank::pg::uuid_to_string(args::require(args::uuid(fcinfo, 0), "transaction_id"));
    spi::connect();
    bool found = false;
    const Datum response = render::transaction_response(transaction_id, &found);
    spi::finish();
    if (!found) PG_RETURN_NULL();
    PG_RETURN_DATUM(response);
}
