// ledger_chain.cpp: see ledger_chain.hpp.
#include "core/ledger_chain.hpp"

#include "core/crypto.hpp"
#include "core/errors.hpp"

namespace corebank::core::ledger {

namespace {

void put_text(std::string& out, std::string_view name, std::string_view value) {
    out.append(name).push_back('=');
    out.append(std::to_string(value.size())).push_back(':');
    out.append(value).push_back('\n');
}

void put_optional(std::string& out, std::string_view name, const std::optional<std::string>& value) {
    if (value) {
        put_text(out, name, *value);
        return;
    }
    out.append(name).append("=~\n");
}

void put_integer(std::string& out, std::string_view name, std::int64_t value) {
    out.append(name).push_back('=');
    out.append(std::to_string(value)).push_back('\n');
}

void put_entry(std::string& out, const ChainEntry& entry) {
    put_integer(out, "line", entry.line_no);
    put_text(out, "gl_account_id", entry.gl_account_id);
    put_optional(out, "ledger_account_id", entry.ledger_account_id);
    put_text(out, "currency", entry.currency);
    put_text(out, "side", std::string_view(&entry.side, 1));
    put_integer(out, "amount_minor", entry.amount_minor);
    put_optional(out, "narrative", entry.narrative);
    put_text(out, "branch_id", entry.branch_id);
    put_text(out, "value_date", entry.value_date);
    put_text(out, "channel", entry.channel);
    put_text(out, "operator_id", entry.operator_id);
    put_integer(out, "created_at_us", entry.created_at_us);
}

}  // namespace

std::string chain_genesis_hash() { return std::string(sha256_bytes, '\0'); }

std::string canonical_encoding(const ChainTransaction& transaction) {
    std::string out;
    out.reserve(512 + transaction.entries.size() * 320);
    out.append(chain_encoding_version).push_back('\n');
    put_text(out, "id", transaction.id);
    put_text(out, "type", transaction.type);
    put_text(out, "reference", transaction.reference);
    put_optional(out, "description", transaction.description);
    put_text(out, "value_date", transaction.value_date);
    put_text(out, "branch_id", transaction.branch_id);
    put_text(out, "channel", transaction.channel);
    put_optional(out, "maker_id", transaction.maker_id);
    put_text(out, "operator_id", transaction.operator_id);
    put_optional(out, "reverses_id", transaction.reverses_id);
    put_optional(out, "idempotency_key", transaction.idempotency_key);
    put_integer(out, "created_at_us", transaction.created_at_us);
    put_integer(out, "posted_at_us", transaction.posted_at_us);
    put_integer(out, "stripe", transaction.stripe);
    put_integer(out, "seq", transaction.seq);
    put_integer(out, "lines", static_cast<std::int64_t>(transaction.entries.size()));
    for (const ChainEntry& entry : transaction.entries) put_entry(out, entry);
    return out;
}

std::string chain_hash(std::string_view prev_hash, const ChainTransaction& transaction) {
    if (prev_hash.size() != sha256_bytes) {
        throw CoreError(sqlstate_internal, "chain_hash: prev_hash must be 32 bytes");
    }
    std::string input(prev_hash);
    input.append(canonical_encoding(transaction));
    return sha256(input);
}

}  // namespace corebank::core::ledger
