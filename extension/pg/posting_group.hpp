// posting_group.hpp: N single posting requests decided and written together
// in one transaction (docs/design/posting-engine.md, section 1, "N requests
// at once"; docs/design/posting-group.md for the tier's side).
//
// The tier gathers concurrent POST /v1/transfers requests and calls
// corebank.core_postings once for the group. What one call does, in order:
//   1. reads every request's members (core/money_request.hpp, the single
//      path's readers and limits);
//   2. claims the requests' idempotency keys in one statement
//      (INSERT ... ON CONFLICT DO NOTHING; the request hash is the single
//      path's, so a replay of a key claimed by either path is recognised);
//   3. loads and locks every account once, in id order, as a single posting
//      does (posting::load_accounts: an account debited by any request of
//      the group FOR NO KEY UPDATE; one only credited shares the row when
//      another posting holds it and is credited through a stripe);
//   4. decides every request against running balances with the one decider
//      of transfers (pg/transfer_decider.hpp), in request order;
//   5. writes the posted ones with one statement per table
//      (transfer_decider::write -> posting::write), stores each keyed
//      response under its key, and renders each response as the single
//      path does.
// A request this call does not post is answered ALONE and nothing of it is
// written (its key claim is taken back): a replay, a refusal, and whatever
// only the single path's rules decide (a value date, a named branch, two
// currencies, a fixed deposit, another operation). The caller posts it
// alone with the single function, whose answer (response or error) is then
// the request's: so a request's answer never differs from the single path's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pg/jsonb_members.hpp"

namespace corebank::pg::posting_group {

// At most this many requests per call: the tier's group size. Each request
// names two accounts and writes one transaction and two entries, far inside
// the batch's own bounds.
inline constexpr std::size_t requests_max = 256;

// One request's answer: posted, with the TransactionResponse as jsonb's
// text of it (what core_transfer's response prints as text), or not, with
// the reason it goes alone.
struct Answer {
    bool posted = false;
    std::string response;  // posted
    std::string reason;    // not posted; valid UTF-8 (an invalid byte of a request's text is replaced)
};

// Runs inside the caller's SPI connection and transaction; returns one
// answer per request, in order. CBV00 for a malformed call (not an array of
// 1..requests_max {"operation","request"} objects, or not one actor per
// request).
std::vector<Answer> run(const JsonbArgument& requests, const std::vector<std::optional<std::string>>& actors);

// The answers as corebank.core_postings returns them: the JSON text of an
// array with one element per request, {"status":"POSTED","response":
// <TransactionResponse>} or {"status":"ALONE","reason":"..."}.
std::string answers_json(const std::vector<Answer>& answers);

}  // namespace corebank::pg::posting_group
