// transfer_batch_test.cpp: the request of a batch of transfers
// (extension/core/transfer_batch.hpp) and the tier's check of it
// (httpd/src/banking/deposits/money_validation.hpp, parse_transfer_batch).
//
// Goal: every rule of docs/design/batch-transfers.md holds at its edges with
// the documented "transfers[i].field: reason" message, the linked chains
// come out as TigerBeetle's linked events define them, and the tier maps the
// parser's failures to 400 BAD_REQUEST / VALIDATION_ERROR and merges the
// Idempotency-Key header. Method: hand-written bodies; no database.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "api_error.hpp"
#include "banking/deposits/money_validation.hpp"
#include "core/errors.hpp"
#include "core/transfer_batch.hpp"

namespace {

namespace batch = corebank::core::transfer_batch;
using corebank::core::CoreError;
using corebank::httpd::ApiError;
using nlohmann::json;

const char* const a = "11111111-1111-4111-8111-111111111111";
const char* const b = "22222222-2222-4222-8222-222222222222";

json transfer(std::int64_t amount = 100) {
    return json{{"fromAccountId", a}, {"toAccountId", b}, {"amountMinor", amount}};
}

std::string body_of(const json& transfers) { return json{{"transfers", transfers}}.dump(); }

// The CBV00 message of a body the parser refuses ("" when it accepts it).
std::string refusal(const std::string& body) {
    try {
        (void)batch::parse_transfer_batch(body);
    } catch (const CoreError& e) {
        EXPECT_STREQ(e.sqlstate(), corebank::core::sqlstate_validation);
        return e.what();
    }
    return "";
}

std::string item_refusal(const json& item) { return refusal(body_of(json::array({transfer(), item}))); }

TEST(TransferBatchParse, ReadsEveryMember) {
    json item = transfer(2500);
    item["fromAccountId"] = "11111111-1111-4111-8111-11111111111A";  // any case, lower-cased
    item["currency"] = "usd";
    item["reference"] = "INV-1";
    item["narrative"] = "rent, Harare";
    item["linked"] = true;
    const batch::TransferBatch parsed = batch::parse_transfer_batch(
        json{{"transfers", json::array({item, transfer(1)})}, {"channel", "mobile"}, {"idempotencyKey", "k-1"}}.dump());
    ASSERT_EQ(parsed.transfers.size(), 2u);
    const batch::Transfer& first = parsed.transfers[0];
    EXPECT_EQ(first.from_account_id, "11111111-1111-4111-8111-11111111111a");
    EXPECT_EQ(first.to_account_id, b);
    EXPECT_EQ(first.amount_minor, 2500);
    EXPECT_EQ(first.currency, "USD");
    EXPECT_EQ(first.reference, "INV-1");
    EXPECT_EQ(first.narrative, "rent, Harare");
    EXPECT_TRUE(first.linked);
    EXPECT_FALSE(parsed.transfers[1].linked);
    EXPECT_FALSE(parsed.transfers[1].reference.has_value());
    EXPECT_EQ(parsed.channel, "MOBILE");
    EXPECT_EQ(parsed.idempotency_key, "k-1");
}

TEST(TransferBatchParse, DefaultsChannelAndKey) {
    const batch::TransferBatch parsed = batch::parse_transfer_batch(body_of(json::array({transfer()})));
    EXPECT_EQ(parsed.channel, "BRANCH");
    EXPECT_FALSE(parsed.idempotency_key.has_value());
}

TEST(TransferBatchParse, RefusesMalformedRequests) {
    EXPECT_EQ(refusal("{"), "request: must be valid JSON");
    EXPECT_EQ(refusal("[]"), "request: must be a JSON object");
    EXPECT_EQ(refusal("{}"), "transfers: is required");
    EXPECT_EQ(refusal(R"({"transfers": null})"), "transfers: is required");
    EXPECT_EQ(refusal(R"({"transfers": {}})"), "transfers: must be an array");
    EXPECT_EQ(refusal(R"({"transfers": []})"), "transfers: must hold at least one transfer");
    EXPECT_EQ(refusal(R"({"transfers": [1]})"), "transfers[0]: must be a JSON object");
    EXPECT_EQ(refusal(R"({"transfers": [[[[[[]]]]]]})"), "request: is nested too deeply");
    EXPECT_EQ(refusal(R"({"transfers": [[[]]]})"), "transfers[0]: must be a JSON object");
    EXPECT_EQ(refusal(R"({"transfers": [], "operatorId": "x"})"), "operatorId: unknown field");
    EXPECT_EQ(refusal(body_of(json::array({transfer()})).insert(1, R"("channel": "no spaces",)")),
              "channel: must be 1 to 32 of A-Z a-z 0-9 _ . -");
    EXPECT_EQ(refusal(std::string(batch::request_bytes_max + 1, ' ')), "request: must be at most 4 MiB");
    EXPECT_EQ(refusal(body_of(json::array({transfer()})).insert(1, R"("channel": "",)")),
              "channel: must be 1 to 32 characters");
    EXPECT_EQ(refusal(body_of(json::array({transfer()})).insert(1, R"("idempotencyKey": "",)")),
              "idempotencyKey: must be 1 to 128 characters");
}

TEST(TransferBatchParse, BoundsTheBatch) {
    json many = json::array();
    for (std::size_t i = 0; i < batch::transfers_max; ++i) many.push_back(transfer());
    EXPECT_EQ(refusal(body_of(many)), "");
    many.push_back(transfer());
    EXPECT_EQ(refusal(body_of(many)), "transfers: must hold at most 8000 transfers");
}

TEST(TransferBatchParse, RefusesBadItems) {
    json item = transfer();
    item.erase("fromAccountId");
    EXPECT_EQ(item_refusal(item), "transfers[1].fromAccountId: is required");
    item = transfer();
    item["toAccountId"] = "not-a-uuid";
    EXPECT_EQ(item_refusal(item), "transfers[1].toAccountId: must be a UUID");
    item["toAccountId"] = 7;
    EXPECT_EQ(item_refusal(item), "transfers[1].toAccountId: must be a UUID");
    item["toAccountId"] = a;
    EXPECT_EQ(item_refusal(item), "transfers[1].toAccountId: must differ from fromAccountId");
    EXPECT_EQ(item_refusal(transfer(0)), "transfers[1].amountMinor: must be greater than zero");
    EXPECT_EQ(item_refusal(transfer(-5)), "transfers[1].amountMinor: must be greater than zero");
    EXPECT_EQ(item_refusal(transfer(batch::amount_minor_max)), "");
    EXPECT_EQ(item_refusal(transfer(batch::amount_minor_max + 1)),
              "transfers[1].amountMinor: must be at most 1000000000000000");
    item = transfer();
    item["amountMinor"] = 12.5;
    EXPECT_EQ(item_refusal(item), "transfers[1].amountMinor: must be an integer number of minor units");
    item["amountMinor"] = "100";
    EXPECT_EQ(item_refusal(item), "transfers[1].amountMinor: must be an integer number of minor units");
    item["amountMinor"] = 18446744073709551615u;
    EXPECT_EQ(item_refusal(item), "transfers[1].amountMinor: must be at most 1000000000000000");
    item = transfer();
    item["currency"] = "US";
    EXPECT_EQ(item_refusal(item), "transfers[1].currency: must be a 3-letter currency code");
    item["currency"] = "U$D";
    EXPECT_EQ(item_refusal(item), "transfers[1].currency: must be a 3-letter currency code");
    item = transfer();
    item["reference"] = std::string(64, 'r');
    EXPECT_EQ(item_refusal(item), "");
    item["reference"] = std::string(65, 'r');
    EXPECT_EQ(item_refusal(item), "transfers[1].reference: must be at most 64 characters");
    item["reference"] = 7;
    EXPECT_EQ(item_refusal(item), "transfers[1].reference: must be a string");
    item = transfer();
    item["narrative"] = std::string(400, 'n');
    EXPECT_EQ(item_refusal(item), "");
    item["narrative"] = "line\nbreak";
    EXPECT_EQ(item_refusal(item), "transfers[1].narrative: must not contain control characters");
    item = transfer();
    item["linked"] = "yes";
    EXPECT_EQ(item_refusal(item), "transfers[1].linked: must be true or false");
    item = transfer();
    item["makerId"] = a;
    EXPECT_EQ(item_refusal(item), "transfers[1].makerId: unknown field");
}

TEST(TransferBatchParse, TrimsTextAsSingleTransfersDo) {
    json item = transfer();
    item["reference"] = "  INV-7 ";
    item["narrative"] = "   ";
    const batch::TransferBatch parsed = batch::parse_transfer_batch(body_of(json::array({item})));
    EXPECT_EQ(parsed.transfers[0].reference, "INV-7");
    EXPECT_FALSE(parsed.transfers[0].narrative.has_value());  // the default narrative applies
    item["reference"] = "";
    EXPECT_FALSE(batch::parse_transfer_batch(body_of(json::array({item}))).transfers[0].reference.has_value());
}

TEST(TransferBatchParse, CountsCharactersNotBytes) {
    json item = transfer();
    std::string narrative;
    for (int i = 0; i < 400; ++i) narrative += "\xC3\xA9";  // é: 2 bytes, 1 character
    item["narrative"] = narrative;
    EXPECT_EQ(item_refusal(item), "");
    item["narrative"] = narrative + "\xC3\xA9";
    EXPECT_EQ(item_refusal(item), "transfers[1].narrative: must be at most 400 characters");
}

std::vector<batch::Transfer> linked_flags(std::initializer_list<bool> flags) {
    std::vector<batch::Transfer> transfers;
    for (const bool flag : flags) {
        batch::Transfer t;
        t.linked = flag;
        transfers.push_back(t);
    }
    return transfers;
}

TEST(TransferBatchChains, FollowLinkedEvents) {
    // a | b+c | d+e+f | g
    const auto chains = batch::linked_chains(linked_flags({false, true, false, true, true, false, false}));
    ASSERT_EQ(chains.size(), 4u);
    EXPECT_EQ(std::make_tuple(chains[0].first, chains[0].last, chains[0].open), std::make_tuple(0u, 0u, false));
    EXPECT_EQ(std::make_tuple(chains[1].first, chains[1].last, chains[1].open), std::make_tuple(1u, 2u, false));
    EXPECT_EQ(std::make_tuple(chains[2].first, chains[2].last, chains[2].open), std::make_tuple(3u, 5u, false));
    EXPECT_EQ(std::make_tuple(chains[3].first, chains[3].last, chains[3].open), std::make_tuple(6u, 6u, false));
}

TEST(TransferBatchChains, AnUnclosedChainIsOpen) {
    const auto chains = batch::linked_chains(linked_flags({false, true, true}));
    ASSERT_EQ(chains.size(), 2u);
    EXPECT_EQ(std::make_tuple(chains[1].first, chains[1].last, chains[1].open), std::make_tuple(1u, 2u, true));
    const auto single = batch::linked_chains(linked_flags({true}));
    ASSERT_EQ(single.size(), 1u);
    EXPECT_TRUE(single[0].open);
}

// The tier's check: the parser's refusals as documented 400s.
ApiError tier_refusal(const std::string& body, const std::optional<std::string>& header = std::nullopt) {
    try {
        (void)corebank::httpd::core_banking::parse_transfer_batch(body, header);
    } catch (const ApiError& e) {
        return e;
    }
    return ApiError{0, "", ""};
}

TEST(TransferBatchTier, MapsRefusalsTo400) {
    const ApiError malformed = tier_refusal("{\"transfers\": [");
    EXPECT_EQ(std::make_tuple(malformed.status, malformed.code, std::string(malformed.what())),
              std::make_tuple(400, std::string("BAD_REQUEST"), std::string("Malformed JSON request body")));
    EXPECT_EQ(tier_refusal("42").code, "BAD_REQUEST");
    EXPECT_EQ(tier_refusal(std::string(100000, '[') + std::string(100000, ']')).code, "BAD_REQUEST");
    json euro = transfer();
    euro["currency"] = "eur";
    EXPECT_EQ(std::string(tier_refusal(body_of(json::array({transfer(), euro}))).what()),
              "transfers[1].currency: must be one of USD, ZWG");
    const ApiError field = tier_refusal(body_of(json::array({transfer(0)})));
    EXPECT_EQ(std::make_tuple(field.status, field.code, std::string(field.what())),
              std::make_tuple(400, std::string("VALIDATION_ERROR"),
                              std::string("transfers[0].amountMinor: must be greater than zero")));
}

TEST(TransferBatchTier, MergesTheIdempotencyKeyHeader) {
    const std::string body = body_of(json::array({transfer()}));
    EXPECT_EQ(corebank::httpd::core_banking::parse_transfer_batch(body, std::nullopt), body);
    const json merged = json::parse(corebank::httpd::core_banking::parse_transfer_batch(body, std::string("k-9")));
    EXPECT_EQ(merged["idempotencyKey"], "k-9");
    EXPECT_EQ(merged["transfers"], json::array({transfer()}));
    const std::string with_key = json{{"transfers", json::array({transfer()})}, {"idempotencyKey", "k-9"}}.dump();
    EXPECT_EQ(corebank::httpd::core_banking::parse_transfer_batch(with_key, std::string("k-9")), with_key);
    EXPECT_EQ(tier_refusal(with_key, std::string("k-8")).what(), std::string("Idempotency-Key header and idempotencyKey field differ"));
    EXPECT_EQ(tier_refusal(body, std::string("")).what(), std::string("Idempotency-Key: must be 1 to 128 characters"));
    EXPECT_EQ(tier_refusal(body, std::string(129, 'k')).what(), std::string("Idempotency-Key: must be 1 to 128 characters"));
}

}  // namespace
