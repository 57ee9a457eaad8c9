// ledger_post.cpp: corebank.ledger_post, the posting contract for the
// platform's own postings (deposits, transfers, fees...), and
// corebank.next_number, document numbers (gap-free but for TRANSACTION from 1.5).
//
// ledger_post parses and bounds the request in core/ (CBV00 for malformed
// input), refuses an unbalanced request before taking any lock (CB422), then
// hands the lines to the posting engine (pg/ledger_posting.hpp), which does
// the checks that need the database, the locking in a fixed order and the
// writes. With an idempotencyKey the key is claimed first: a repeat of the
// same request (same key, same request hash) returns the stored response
// and posts nothing, also when the two run concurrently (the second waits on
// the key's unique index); another request under the key is CB409.
#include "core/crypto.hpp"
#include "core/ledger.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/check.hpp"
#include "pg/datums.hpp"
#include "pg/ledger_common.hpp"
#include "pg/ledger_posting.hpp"
#include "pg/spi.hpp"

namespace {

using namespace corebank;
namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;
namespace posting = corebank::pg::posting;
using corebank::pg::ledger::fail;

constexpr const char idempotency_scope[] = "ledger.post";

constexpr const char next_number_sql[] =
    "UPDATE corebank.numbering_config SET next_value = next_value + 1 WHERE entity_type = $1 "
    "RETURNING corebank_internal.format_number(prefix, padding, next_value - 1)";


}  // namespace

/* SQL function: corebank.ledger_post(request jsonb) returns jsonb */
COREBANK_FUNCTION(ledger_post) {
    const std::string request_text = args::require(args::jsonb_text(fcinfo, 0), "request");
    const core::ledger::Request request = core::ledger::parse_request(request_text, core::ledger::Dialect::ledger_post);
    if (const std::optional<std::string> currency = core::ledger::unbalanced_currency(request.lines)) {
        fail(core::sqlstate_unprocessable, "transaction is not balanced in " + *currency);
    }
    posting::Header header = posting::header_from_request(request);
    header.idempotency_key = request.idempotency_key;
    std::vector<posting::Line> lines = posting::lines_from_request(request.lines);

    spi::connect();
    if (request.idempotency_key) {
        const posting::Claim claim = posting::idempotency_claim(
            idempotency_scope, *request.idempotency_key, core::sha256(std::string(idempotency_scope) + "\n" + request_text));
        if (claim.replay) {
            spi::finish();
            PG_RETURN_DATUM(claim.response);
        }
    }
    const posting::Accounts accounts = posting::load_accounts(lines, true);
    posting::bind_accounts(lines, accounts);
    posting::post(header, lines, accounts, posting::GlRule::any);
    const Datum response = request.idempotency_key
                               ? posting::idempotency_complete(idempotency_scope, *request.idempotency_key, header.id)
                               : posting::render_transaction(header.id);
    spi::finish();
    PG_RETURN_DATUM(response);
}

// The number is taken under the config row's lock, held to commit: numbers
// are gap-free and in commit order, at the price of serialising the callers
// (keep it off hot paths; ledger_post takes the caller's reference).
/* SQL function: corebank.next_number(entity_type text) returns text */
COREBANK_FUNCTION(next_number) {
    const std::string entity_type = args::require(args::text(fcinfo, 0), "entity_type");
    spi::connect();
    const std::uint64_t rows = spi::execute(next_number_sql, {spi::Arg::text(entity_type)});
    if (rows == 0) args::throw_validation("entity_type: must be LOAN, ACCOUNT, TRANSACTION or APPLICATION");
    const std::string number = spi::get_text(0, 1).value();
    spi::finish();
    PG_RETURN_DATUM(pg::text_datum(number));
}

// From 1.5 (corebank.next_number is this function): TRANSACTION numbers come
// from the sequence corebank.transaction_numbers, so that postings never wait
// on the numbering row; they are unique and increasing, and a rolled-back
// posting leaves a gap. The other entity types stay gap-free as above.
/* SQL function: corebank.next_number(entity_type text) returns text (1.5) */
COREBANK_FUNCTION(numbering_next) {
    const std::string entity_type = args::require(args::text(fcinfo, 0), "entity_type");
    spi::connect();
    if (entity_type == "TRANSACTION") {
        const std::string number = pg::ledger::next_transaction_number();
        spi::finish();
        PG_RETURN_DATUM(pg::text_datum(number));
    }
    const std::uint64_t rows = spi::execute(next_number_sql, {spi::Arg::text(entity_type)});
    if (rows == 0) args::throw_validation("entity_type: must be LOAN, ACCOUNT, TRANSACTION or APPLICATION");
    const std::string number = spi::get_text(0, 1).value();
    spi::finish();
    PG_RETURN_DATUM(pg::text_datum(number));
}
