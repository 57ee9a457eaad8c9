// ledger_test.cpp: the ledger's pure C++ parts (extension/core/ledger*.hpp):
// the input rules of a posting and the canonical encoding behind the hash chains.
//
// Goal: the limits and messages hold at their edges, and the chain hash is a
// fixed function of every posted field: change any one and the hash changes,
// change nothing and it stays the same. Method: hand-written requests and a
// transaction built in code; no database.
#include <gtest/gtest.h>

#include <string>

#include "core/crypto.hpp"
#include "core/errors.hpp"
#include "core/ledger.hpp"
#include "core/ledger_chain.hpp"

namespace {

namespace ledger = corebank::core::ledger;
using corebank::core::CoreError;

std::string posting(const std::string& lines) {
    return R"({"type":"TRANSFER","reference":"R1","branchId":"00000000-0000-0000-0000-000000000001",)"
           R"("channel":"API","operatorId":"00000000-0000-0000-0000-000000000002","lines":)" + lines + "}";
}

const char* const two_lines =
    R"([{"glAccountId":"00000000-0000-0000-0000-00000000000a","side":"D","amountMinor":500,"currency":"USD"},)"
    R"({"glAccountId":"00000000-0000-0000-0000-00000000000b","side":"C","amountMinor":500,"currency":"USD"}])";

std::string message_of(const std::string& json, ledger::Dialect dialect) {
    try {
        ledger::parse_request(json, dialect);
    } catch (const CoreError& e) {
        return std::string(e.sqlstate()) + " " + e.what();
    }
    return "accepted";
}

// Goal: a well-formed posting parses with its lines in order.
TEST(LedgerRequest, ParsesAPosting) {
    const auto request = ledger::parse_request(posting(two_lines), ledger::Dialect::ledger_post);
    ASSERT_EQ(request.lines.size(), 2u);
    EXPECT_EQ(request.lines[0].side, ledger::Side::debit);
    EXPECT_EQ(request.lines[1].amount_minor, 500);
    EXPECT_FALSE(ledger::unbalanced_currency(request.lines).has_value());
}

// Goal: one line, a zero or oversized amount, and a float amount are refused with CBV00.
TEST(LedgerRequest, RefusesBadLines) {
    EXPECT_EQ(message_of(posting(R"([{"glAccountId":"00000000-0000-0000-0000-00000000000a","side":"D","amountMinor":5,"currency":"USD"}])"),
                         ledger::Dialect::ledger_post).substr(0, 5), "CBV00");
    EXPECT_EQ(message_of(posting(R"([{"glAccountId":"00000000-0000-0000-0000-00000000000a","side":"D","amountMinor":0,"currency":"USD"},{"glAccountId":"00000000-0000-0000-0000-00000000000b","side":"C","amountMinor":0,"currency":"USD"}])"),
                         ledger::Dialect::ledger_post).substr(0, 5), "CBV00");
    EXPECT_EQ(message_of(posting(R"([{"glAccountId":"00000000-0000-0000-0000-00000000000a","side":"D","amountMinor":1.5,"currency":"USD"},{"glAccountId":"00000000-0000-0000-0000-00000000000b","side":"C","amountMinor":1,"currency":"USD"}])"),
                         ledger::Dialect::ledger_post).substr(0, 5), "CBV00");
    EXPECT_EQ(message_of(posting(R"([{"glAccountId":"00000000-0000-0000-0000-00000000000a","side":"D","amountMinor":1000000000000001,"currency":"USD"},{"glAccountId":"00000000-0000-0000-0000-00000000000b","side":"C","amountMinor":1,"currency":"USD"}])"),
                         ledger::Dialect::ledger_post).substr(0, 5), "CBV00");
}

// Goal: the balance check is per currency: 5 USD against 5 ZWG is not balanced.
TEST(LedgerRequest, BalanceIsPerCurrency) {
    std::vector<ledger::Line> lines(2);
    lines[0].side = ledger::Side::debit;
    lines[0].amount_minor = 5;
    lines[0].currency = "USD";
    lines[1].side = ledger::Side::credit;
    lines[1].amount_minor = 5;
    lines[1].currency = "ZWG";
    EXPECT_EQ(ledger::unbalanced_currency(lines), std::optional<std::string>("USD"));
    lines[1].currency = "USD";
    EXPECT_FALSE(ledger::unbalanced_currency(lines).has_value());
}

// Goal: decimal amounts convert exactly, never through floating point.
TEST(LedgerRequest, DecimalToMinorIsExact) {
    EXPECT_EQ(ledger::decimal_to_minor("12.34", 2), 1234);
    EXPECT_EQ(ledger::decimal_to_minor("12", 2), 1200);
    EXPECT_EQ(ledger::decimal_to_minor("0.1", 2), 10);
    EXPECT_FALSE(ledger::decimal_to_minor("12.345", 2).has_value());
    EXPECT_FALSE(ledger::decimal_to_minor("-1", 2).has_value());
    EXPECT_FALSE(ledger::decimal_to_minor("1e3", 2).has_value());
    EXPECT_FALSE(ledger::decimal_to_minor("", 2).has_value());
}

// Goal: dates, periods and UUIDs are checked strictly.
TEST(LedgerRequest, ChecksDatesPeriodsUuids) {
    EXPECT_TRUE(ledger::is_iso_date("2024-02-29"));
    EXPECT_FALSE(ledger::is_iso_date("2023-02-29"));
    EXPECT_TRUE(ledger::is_period("2026-11"));
    EXPECT_FALSE(ledger::is_period("2026-13"));
    EXPECT_EQ(ledger::canonical_uuid("123E4567-E89B-12D3-A456-426614174000"),
              std::optional<std::string>("123e4567-e89b-12d3-a456-426614174000"));
    EXPECT_FALSE(ledger::canonical_uuid("123e4567e89b12d3a456426614174000").has_value());
}

ledger::ChainTransaction sample_transaction() {
    ledger::ChainTransaction t;
    t.id = "00000000-0000-0000-0000-0000000000aa";
    t.type = "TRANSFER";
    t.reference = "R1";
    t.value_date = "2026-11-21";
    t.branch_id = "00000000-0000-0000-0000-000000000001";
    t.channel = "API";
    t.operator_id = "00000000-0000-0000-0000-000000000002";
    t.created_at_us = 1795000000000000;
    t.posted_at_us = 1795000000000001;
    t.stripe = 3;
    t.seq = 7;
    for (int i = 0; i < 2; ++i) {
        ledger::ChainEntry e;
        e.line_no = i + 1;
        e.gl_account_id = i == 0 ? "00000000-0000-0000-0000-00000000000a" : "00000000-0000-0000-0000-00000000000b";
        e.currency = "USD";
        e.side = i == 0 ? 'D' : 'C';
        e.amount_minor = 500;
        e.branch_id = t.branch_id;
        e.value_date = t.value_date;
        e.channel = t.channel;
        e.operator_id = t.operator_id;
        e.created_at_us = t.created_at_us;
        t.entries.push_back(e);
    }
    return t;
}

// Goal: the encoding is versioned, deterministic, and length-prefixes text so
// no value can imitate a separator.
TEST(LedgerChain, EncodingIsDeterministicAndVersioned) {
    const auto t = sample_transaction();
    const std::string encoded = ledger::canonical_encoding(t);
    EXPECT_EQ(encoded.rfind("corebank-ledger-chain-v1", 0), 0u);
    EXPECT_EQ(encoded, ledger::canonical_encoding(sample_transaction()));
    EXPECT_NE(encoded.find("reference=2:R1\n"), std::string::npos) << encoded;
    auto tricky = t;
    tricky.reference = "R1\nchannel=3:API";
    EXPECT_NE(ledger::canonical_encoding(tricky), encoded);
}

// Goal: the hash is SHA-256(prev || encoding), starts from 32 zero bytes, and
// any change to an amount, a side, the order of lines or the previous hash changes it.
TEST(LedgerChain, HashCoversEveryField) {
    const auto t = sample_transaction();
    const std::string genesis = ledger::chain_genesis_hash();
    ASSERT_EQ(genesis, std::string(32, '\0'));
    const std::string hash = ledger::chain_hash(genesis, t);
    EXPECT_EQ(hash, corebank::core::sha256(genesis + ledger::canonical_encoding(t)));
    auto amount = t;
    amount.entries[0].amount_minor = 501;
    EXPECT_NE(ledger::chain_hash(genesis, amount), hash);
    auto side = t;
    side.entries[1].side = 'D';
    EXPECT_NE(ledger::chain_hash(genesis, side), hash);
    auto order = t;
    std::swap(order.entries[0], order.entries[1]);
    EXPECT_NE(ledger::chain_hash(genesis, order), hash);
    EXPECT_NE(ledger::chain_hash(hash, t), hash);
}

}  // namespace
