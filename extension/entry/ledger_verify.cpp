// ledger_verify.cpp: corebank.ledger_verify_chain, the tamper check.
//
// Recomputes each of the 16 hash chains from the journal, in chain order,
// with the canonical encoding of core/ledger_chain.hpp, and reports the first
// break of each chain:
//   - a gap in the sequence (a transaction removed from the middle);
//   - a prev_hash that is not the previous transaction's hash;
//   - a hash that does not match the transaction and its entries as stored
//     now (a field or an entry changed, an entry added or removed);
//   - a chain head that is not the last transaction (one removed at the end,
//     or the head rewritten).
// and, outside the chains, entries of a transaction that is on no chain.
// No rows: the journal is intact up to the chain heads an auditor recorded.
// Reads in batches of transactions, so memory stays bounded.
#include <vector>

#include "core/ledger_chain.hpp"
#include "entry/entry.hpp"
#include "pg/check.hpp"
#include "pg/guard.hpp"
#include "pg/spi.hpp"

extern "C" {
#include "utils/tuplestore.h"
}

namespace {

using namespace corebank;
namespace spi = corebank::pg::spi;
namespace chain = corebank::core::ledger;

constexpr std::int32_t batch_transactions = 200;
constexpr std::int32_t unchained_reported_max = 100;

constexpr const char head_sql[] = "SELECT h.seq, h.hash FROM corebank.chain_heads h WHERE h.stripe = $1";

// The transactions of one chain after a sequence number, each with its
// entries in line order (an entry-less transaction comes back once, with
// NULL entry columns).
constexpr const char batch_sql[] =
    "SELECT t.id::text, t.chain_seq, t.prev_hash, t.hash, t.type, t.reference, t.description, "
    "       to_char(t.value_date, 'YYYY-MM-DD'), t.branch_id::text, t.channel, t.maker_id::text, "
    "       t.operator_id::text, t.reverses_id::text, t.idempotency_key, "
    "       (extract(epoch FROM t.created_at) * 1000000)::bigint, "
    "       (extract(epoch FROM t.posted_at) * 1000000)::bigint, "
    "       e.line_no, e.gl_account_id::text, e.ledger_account_id::text, e.currency::text, e.side, "
    "       e.amount_minor, e.narrative, e.branch_id::text, to_char(e.value_date, 'YYYY-MM-DD'), e.channel, "
    "       e.operator_id::text, (extract(epoch FROM e.created_at) * 1000000)::bigint "
    "FROM (SELECT * FROM corebank.transactions x "
    "      WHERE x.chain_stripe = $1 AND x.chain_seq > $2 ORDER BY x.chain_seq LIMIT $3) t "
    "LEFT JOIN corebank.journal_entries e ON e.transaction_id = t.id "
    "ORDER BY t.chain_seq, e.line_no";

constexpr const char unchained_sql[] =
    "SELECT DISTINCT e.transaction_id::text FROM corebank.journal_entries e "
    "JOIN corebank.transactions t ON t.id = e.transaction_id "
    "WHERE t.chain_seq IS NULL LIMIT $1";

struct Problem {
    std::optional<std::int64_t> stripe;
    std::optional<std::int64_t> seq;
    std::optional<std::string> transaction_id;
    std::string problem;
};

struct Stored {
    chain::ChainTransaction record;
    std::string prev_hash;
    std::string hash;
};

chain::ChainEntry entry_at(std::uint64_t row) {
    return chain::ChainEntry{spi::get_int(row, 17).value(),      spi::get_text(row, 18).value(),
                             spi::get_text(row, 19),             spi::get_text(row, 20).value(),
                             spi::get_text(row, 21).value()[0],  spi::get_int(row, 22).value(),
                             spi::get_text(row, 23),             spi::get_text(row, 24).value(),
                             spi::get_text(row, 25).value(),     spi::get_text(row, 26).value(),
                             spi::get_text(row, 27).value(),     spi::get_int(row, 28).value()};
}

// Groups the batch's rows into transactions (rows of one transaction are
// consecutive).
std::vector<Stored> read_batch(std::uint64_t rows, std::int64_t stripe) {
    std::vector<Stored> batch;
    for (std::uint64_t row = 0; row < rows; ++row) {
        const std::int64_t seq = spi::get_int(row, 2).value();
        if (batch.empty() || batch.back().record.seq != seq) {
            Stored stored;
            chain::ChainTransaction& record = stored.record;
            record.id = spi::get_text(row, 1).value();
            record.seq = seq;
            record.stripe = stripe;
            stored.prev_hash = spi::get_bytea(row, 3).value();
            stored.hash = spi::get_bytea(row, 4).value();
            record.type = spi::get_text(row, 5).value();
            record.reference = spi::get_text(row, 6).value();
            record.description = spi::get_text(row, 7);
            record.value_date = spi::get_text(row, 8).value();
            record.branch_id = spi::get_text(row, 9).value();
            record.channel = spi::get_text(row, 10).value();
            record.maker_id = spi::get_text(row, 11);
            record.operator_id = spi::get_text(row, 12).value();
            record.reverses_id = spi::get_text(row, 13);
            record.idempotency_key = spi::get_text(row, 14);
            record.created_at_us = spi::get_int(row, 15).value();
            record.posted_at_us = spi::get_int(row, 16).value();
            batch.push_back(std::move(stored));
        }
        if (spi::get_int(row, 17)) batch.back().record.entries.push_back(entry_at(row));
    }
    return batch;
}

// The first break of one chain, if any.
std::optional<Problem> verify_stripe(std::int64_t stripe) {
    CB_CHECK(spi::execute(head_sql, {spi::Arg::int4(static_cast<std::int32_t>(stripe))}) == 1);
    const std::int64_t head_seq = spi::get_int(0, 1).value();
    const std::string head_hash = spi::get_bytea(0, 2).value();

    std::string previous = chain::chain_genesis_hash();
    std::int64_t expected_seq = 1;
    for (;;) {
        const std::uint64_t rows = spi::execute(
            batch_sql, {spi::Arg::int4(static_cast<std::int32_t>(stripe)), spi::Arg::int8(expected_seq - 1),
                        spi::Arg::int4(batch_transactions)});
        if (rows == 0) break;
        for (const Stored& stored : read_batch(rows, stripe)) {
            const chain::ChainTransaction& record = stored.record;
            if (record.seq != expected_seq) {
                return Problem{stripe, record.seq, record.id,
                               "sequence gap: expected " + std::to_string(expected_seq) + " (a transaction was removed)"};
            }
            if (stored.prev_hash != previous) {
                return Problem{stripe, record.seq, record.id, "prev_hash does not match the previous transaction's hash"};
            }
            if (chain::chain_hash(previous, record) != stored.hash) {
                return Problem{stripe, record.seq, record.id,
                               "hash mismatch: the transaction or its entries were changed"};
            }
            previous = stored.hash;
            ++expected_seq;
        }
    }
    if (head_seq != expected_seq - 1 || head_hash != previous) {
        return Problem{stripe, head_seq, std::nullopt,
                       "chain head does not match the last transaction (seq " + std::to_string(expected_seq - 1) +
                           "): a transaction was removed or the head was changed"};
    }
    return std::nullopt;
}

std::vector<Problem> verify_all() {
    std::vector<Problem> problems;
    for (std::int64_t stripe = 0; stripe < chain::chain_stripes; ++stripe) {
        if (std::optional<Problem> problem = verify_stripe(stripe)) problems.push_back(std::move(*problem));
    }
    const std::uint64_t rows = spi::execute(unchained_sql, {spi::Arg::int4(unchained_reported_max)});
    for (std::uint64_t row = 0; row < rows; ++row) {
        problems.push_back(Problem{std::nullopt, std::nullopt, spi::get_text(row, 1),
                                   "journal entries of a transaction that is on no chain"});
    }
    return problems;
}

// Emits one result row; every PostgreSQL call through pg_guard.
void emit(ReturnSetInfo* result, const Problem& problem) {
    const char* transaction_id = problem.transaction_id ? problem.transaction_id->c_str() : nullptr;
    const char* text = problem.problem.c_str();
    const std::int64_t stripe = problem.stripe.value_or(0);
    const std::int64_t seq = problem.seq.value_or(0);
    const bool stripe_null = !problem.stripe;
    const bool seq_null = !problem.seq;
    pg::pg_guard([&]() noexcept {
        Datum values[4];
        bool nulls[4] = {stripe_null, seq_null, transaction_id == nullptr, false};
        values[0] = Int16GetDatum(static_cast<int16>(stripe));
        values[1] = Int64GetDatum(seq);
        values[2] = transaction_id == nullptr ? static_cast<Datum>(0)
                                              : DirectFunctionCall1(uuid_in, CStringGetDatum(transaction_id));
        values[3] = CStringGetTextDatum(text);
        tuplestore_putvalues(result->setResult, result->setDesc, values, nulls);
    });
}

}  // namespace

/* SQL function: corebank.ledger_verify_chain() returns table(stripe smallint, seq bigint, transaction_id uuid, problem text) */
COREBANK_FUNCTION(ledger_verify_chain) {
    spi::connect();
    const std::vector<Problem> problems = verify_all();
    spi::finish();
    pg::pg_guard([&]() noexcept { InitMaterializedSRF(fcinfo, 0); });
    ReturnSetInfo* result = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
    for (const Problem& problem : problems) emit(result, problem);
    return static_cast<Datum>(0);
}
