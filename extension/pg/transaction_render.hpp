// transaction_render.hpp: a transaction's TransactionResponse, rendered in
// C++ from one statement (issue 12 part 1, docs/design/posting-engine.md
// section 5).
//
// The response is the one corebank_internal.transaction_json(uuid) builds
// (equal as jsonb, null members included): that PL/pgSQL function stays the
// SQL face of the reads; every posting answers through this renderer, which
// reads the transaction, its branch code, its lines (journal entries when
// POSTED or REVERSED, proposed lines when PENDING or CANCELLED) with their GL
// account, customer account and currency, and the approval status of a
// parked transaction, in one generic-plan statement, and assembles the JSON
// here instead of in PL/pgSQL (a call and three statements of its own).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "pg/postgres.hpp"

namespace corebank::pg::render {

// The TransactionResponse of `transaction_id` as a jsonb Datum in the memory
// context that was current at spi::connect() (so it survives spi::finish()),
// or 0 with *found = false when no such transaction exists. Call between
// spi::connect() and spi::finish().
Datum transaction_response(const std::string& transaction_id, bool* found);

// The responses of 1..responses_max transactions that exist (a posting
// group's), in the order of `transaction_ids`, from one statement.
inline constexpr std::size_t responses_max = 256;
std::vector<Datum> transaction_responses(const std::vector<std::string>& transaction_ids);

}  // namespace corebank::pg::render
