// transfer_batch.cpp: corebank.core_transfer_batch, a batch of up to 8,000
// transfers with linked chains (docs/design/batch-transfers.md).
//
// The request is parsed and bounded in core/ (CBV00 naming the first bad
// member, before any lock); an idempotencyKey is claimed before any work, so
// a repeat of the same request returns the stored response and posts
// nothing (also when the two run concurrently: the second waits on the
// key's unique index), and another request under the key is CB409. The
// engine (pg/transfer_batch.hpp) decides and writes; the response is stored
// under the key in the same transaction.
#include "core/crypto.hpp"
#include "core/transfer_batch.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/check.hpp"
#include "pg/ledger_posting.hpp"
#include "pg/spi.hpp"
#include "pg/transfer_batch.hpp"
#include "pg/values.hpp"

namespace {

using namespace corebank;
namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;
namespace posting = corebank::pg::posting;

constexpr const char idempotency_scope[] = "core.transfer_batch";

constexpr const char store_response_sql[] =
    "UPDATE corebank.idempotency_keys k SET response = $3::jsonb WHERE k.scope = $1 AND k.key = $2 "
    "RETURNING k.response";

constexpr const char as_jsonb_sql[] = "SELECT $1::jsonb";

}  // namespace

/* SQL function: corebank.core_transfer_batch(request jsonb, actor uuid) returns jsonb */
COREBANK_FUNCTION(core_transfer_batch) {
    const std::string request_text = args::require(args::jsonb_text(fcinfo, 0), "request");
    const std::string actor_id = pg::uuid_to_string(args::require(args::uuid(fcinfo, 1), "actor"));
    const core::transfer_batch::TransferBatch batch = core::transfer_batch::parse_transfer_batch(request_text);

    spi::connect();
    if (batch.idempotency_key) {
        const posting::Claim claim = posting::idempotency_claim(
            idempotency_scope, *batch.idempotency_key,
            core::sha256(std::string(idempotency_scope) + "\n" + request_text));
        if (claim.replay) {
            spi::finish();
            PG_RETURN_DATUM(claim.response);
        }
    }
    const std::string response_text = pg::transfer_batch::run(batch, actor_id);
    const std::uint64_t rows =
        batch.idempotency_key
            ? spi::execute(store_response_sql, {spi::Arg::text(idempotency_scope), spi::Arg::text(*batch.idempotency_key),
                                                spi::Arg::jsonb(response_text)})
            : spi::execute(as_jsonb_sql, {spi::Arg::jsonb(response_text)});
    CB_CHECK(rows == 1);
    const Datum response = spi::get_required_jsonb_for_return(0, 1);
    spi::finish();
    PG_RETURN_DATUM(response);
}
