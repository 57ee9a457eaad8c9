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
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pg/postgres.hpp"

namespace corebank::pg::render {

// What a TransactionResponse shows of one line and of its transaction: the
// columns the render statement reads, or what a posting holds in memory.
struct LineView {
    std::int64_t line_no = 0;
    std::string gl_account_id;
    std::string gl_account_code;
    std::string gl_account_name;
    std::optional<std::string> account_id;
    std::optional<std::string> account_number;
    std::string currency;
    std::int64_t minor_units = 0;  // the currency's
    char side = 'D';               // 'D' or 'C'
    std::int64_t amount_minor = 0;
    std::optional<std::string> narrative;
};

struct TransactionView {
    std::string id;
    std::string reference;
    std::string type;
    std::string status;
    std::optional<std::string> description;
    std::string value_date;  // YYYY-MM-DD
    std::string branch_id;
    std::optional<std::string> branch_code;
    std::string channel;
    std::optional<std::string> maker_id;
    std::string operator_id;
    std::optional<std::string> idempotency_key;
    std::optional<std::string> reverses_id;
    std::optional<std::string> reversed_by_id;
    std::optional<std::string> parked_change_id;
    std::optional<std::string> approval_status;
    bool released = true;
    std::optional<std::string> hash;  // binary SHA-256
    std::optional<std::int64_t> chain_stripe;
    std::optional<std::int64_t> chain_seq;
    std::optional<std::string> created_at;  // iso_utc
    std::optional<std::string> posted_at;
    std::vector<LineView> lines;  // in line order
};

// corebank_internal.iso_utc of a timestamp given in microseconds since the
// Unix epoch: YYYY-MM-DDTHH:MI:SS.USZ.
std::string iso_utc(std::int64_t microseconds_since_epoch);

// The TransactionResponse of a view, with no statement: a posting that holds
// everything the response shows renders it from memory (pgTAP
// posting_group.sql holds it equal to transaction_json). The jsonb is in the
// memory context that was current at spi::connect().
Datum transaction_response_of(const TransactionView& view);

// The TransactionResponse of `transaction_id` as a jsonb Datum in the memory
// context that was current at spi::connect() (so it survives spi::finish()),
// or 0 with *found = false when no such transaction exists. Call between
// spi::connect() and spi::finish().
Datum transaction_response(const std::string& transaction_id, bool* found);

// The TransactionResponse of a transaction as it was when it was posted:
// status POSTED and no reversal, whatever happened to it since (a reversal
// changes only those two members of its row). A posting answered POSTED at
// once keeps no copy of its answer under its idempotency key; a replay of the
// key answers this, which is that answer (pgTAP money_engine.sql). 0 with
// *found = false when no such transaction exists; the transaction must have
// been posted (CB_CHECK).
Datum transaction_response_as_posted(const std::string& transaction_id, bool* found);

}  // namespace corebank::pg::render
