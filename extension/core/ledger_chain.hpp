// ledger_chain.hpp: the journal's hash chains (docs/design/ledger.md, Tamper
// evidence), in pure C++ so the tier and offline auditors can recompute them.
//
// Each posted transaction extends one of 16 chains:
//     hash = SHA-256(prev_hash || canonical_encoding(transaction))
// with prev_hash = 32 zero bytes for the first transaction of a chain.
//
// canonical_encoding() is a fixed, versioned text encoding of the posted
// fields and of every entry in line order. Every field is written as
//     <name>=<value>\n
// where a text value is written as <length in bytes>:<bytes> (so no value can
// imitate a separator), an absent value as ~, integers in decimal, UUIDs in
// lower-case 8-4-4-4-12 form, dates as YYYY-MM-DD and timestamps as
// microseconds since 1970-01-01 00:00:00 UTC. The order is:
//     corebank-ledger-chain-v1
//     id type reference description value_date branch_id channel maker_id
//     operator_id reverses_id idempotency_key created_at_us posted_at_us
//     stripe seq lines
// then for each entry:
//     line line_no gl_account_id ledger_account_id currency side amount_minor
//     narrative branch_id value_date channel operator_id created_at_us
// Changing the encoding means a new version tag and a migration of the chain.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace corebank::core::ledger {

inline constexpr int chain_stripes = 16;
inline constexpr std::string_view chain_encoding_version = "corebank-ledger-chain-v1";

struct ChainEntry {
    std::int64_t line_no = 0;
    std::string gl_account_id;
    std::optional<std::string> ledger_account_id;
    std::string currency;
    char side = 'D';
    std::int64_t amount_minor = 0;
    std::optional<std::string> narrative;
    std::string branch_id;
    std::string value_date;
    std::string channel;
    std::string operator_id;
    std::int64_t created_at_us = 0;
};

struct ChainTransaction {
    std::string id;
    std::string type;
    std::string reference;
    std::optional<std::string> description;
    std::string value_date;
    std::string branch_id;
    std::string channel;
    std::optional<std::string> maker_id;
    std::string operator_id;
    std::optional<std::string> reverses_id;
    std::optional<std::string> idempotency_key;
    std::int64_t created_at_us = 0;
    std::int64_t posted_at_us = 0;
    std::int64_t stripe = 0;
    std::int64_t seq = 0;
    std::vector<ChainEntry> entries;
};

// 32 zero bytes: the prev_hash of the first transaction of every chain.
std::string chain_genesis_hash();

std::string canonical_encoding(const ChainTransaction& transaction);

// SHA-256(prev_hash || canonical_encoding(transaction)), 32 raw bytes.
std::string chain_hash(std::string_view prev_hash, const ChainTransaction& transaction);

}  // namespace corebank::core::ledger
