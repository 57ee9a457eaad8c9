// transfer_batch.hpp: the request of a batch of transfers, in pure C++
// (docs/design/batch-transfers.md).
//
// parse_transfer_batch() reads CreateTransferBatchRequest into a
// TransferBatch, checking every member against the limits below, and throws
// CoreError CBV00 "field: reason" naming the first bad member (items as
// transfers[i], 0-based). It decides nothing that needs the database: which
// accounts exist, their states and balances are the extension's business.
//
// Shared with the tier, which refuses a malformed body with the same
// messages before it reaches the database; the extension parses again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/limits.hpp"

namespace corebank::core::transfer_batch {

// The body is bounded at 4 MiB (the tier's batch_max_body_bytes by default):
// 8,000 transfers with references and short narratives take about 2 MB; a
// batch with every optional member at its limit (about 5.5 MB, more with
// multibyte narratives) must be sent as two requests.
inline constexpr std::size_t transfers_max = 8000;
inline constexpr std::size_t request_bytes_max = 4 * 1024 * 1024;
inline constexpr std::size_t reference_length_max = 64;   // the ledger's reference limit
inline constexpr std::size_t narrative_length_max = 400;  // that of POST /v1/transfers
inline constexpr std::size_t channel_length_max = 32;
inline constexpr std::size_t idempotency_key_length_max = 128;
using limits::amount_minor_max;  // the ledger's line limit

// A batch may move more than a bigint in total (8,000 x 10^15): the engine
// checks every running balance for overflow, transfer by transfer.

struct Transfer {
    std::string from_account_id;           // canonical UUID text
    std::string to_account_id;             // canonical UUID text, differs from from_account_id
    std::int64_t amount_minor = 0;         // 1..amount_minor_max
    std::optional<std::string> currency;   // 3 letters, upper-cased (the tier allows USD, ZWG)
    std::optional<std::string> reference;  // trimmed of spaces; nullopt: the next number
    std::optional<std::string> narrative;  // trimmed of spaces; nullopt: "Transfer <from> to <to>"
    bool linked = false;                   // chains this transfer to the next one
};

struct TransferBatch {
    std::vector<Transfer> transfers;       // 1..transfers_max
    std::string channel = "BRANCH";        // upper-cased
    std::optional<std::string> idempotency_key;
};

TransferBatch parse_transfer_batch(std::string_view json_text);

// The linked chains of a batch: [first, last] index pairs in order. A chain
// is a run of transfers with linked=true and the one after the run; a run
// that reaches the end of the batch is an open chain (open=true).
struct Chain {
    std::size_t first = 0;
    std::size_t last = 0;
    bool open = false;
};
std::vector<Chain> linked_chains(const std::vector<Transfer>& transfers);

}  // namespace corebank::core::transfer_batch
