// statement_cursor_test.cpp: the statement's keyset cursor in the tier
// (banking/deposits/statement_cursor.hpp).
//
// Goal: a sealed cursor opens to exactly what was sealed, only under the same
// key; any change of a sealed byte, a truncation, garbage or another key is refused
// as "cursor: is not valid"; a genuine cursor of another account or another
// requested range is refused as "cursor: is not valid for this statement";
// limit and cursor are read with their bounds; the database's plain cursors
// are replaced by tokens and nulls stay null. Method: pure functions on
// hand-built requests and JSON; no database.
#include <gtest/gtest.h>

#include <string>

#include "api_error.hpp"
#include "banking/deposits/statement_cursor.hpp"
#include "core/base64url.hpp"

namespace {

using corebank::httpd::ApiError;
using corebank::httpd::HttpRequest;
using namespace corebank::httpd::core_banking;

const std::string account = "0b6f4a52-8f3e-4c1e-9a55-2f0d7c3e1a10";
const std::string other_account = "7d1c2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f";

std::string test_key() { return statement_cursor_key(std::string(32, 'k')); }

StatementCursor sample_cursor() {
    StatementCursor cursor;
    cursor.scope = StatementScope{account, "2026-01-01", "", "2026-01-01", "2026-03-31"};
    cursor.position = StatementPosition{"next", "2026-02-14", 123456789, -4200};
    return cursor;
}

HttpRequest request_with(std::map<std::string, std::string> query) {
    HttpRequest request;
    request.method = "GET";
    request.query = std::move(query);
    return request;
}

// The ApiError a call throws, or a failure when it throws none.
template <typename Call>
ApiError error_of(Call call) {
    try {
        call();
    } catch (const ApiError& error) {
        return error;
    }
    ADD_FAILURE() << "no ApiError thrown";
    return ApiError(0, "", "");
}

TEST(StatementCursor, SealedCursorOpensToWhatWasSealed) {
    const StatementCursor cursor = sample_cursor();
    const std::string token = seal_statement_cursor(test_key(), cursor);
    EXPECT_LE(token.size(), statement_cursor_chars_max);
    EXPECT_EQ(token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
              std::string::npos) << token;
    const auto opened = open_statement_cursor(test_key(), token);
    ASSERT_TRUE(opened.has_value());
    EXPECT_EQ(opened->scope.account_id, account);
    EXPECT_EQ(opened->scope.requested_from, "2026-01-01");
    EXPECT_EQ(opened->scope.requested_to, "");
    EXPECT_EQ(opened->scope.first_day, "2026-01-01");
    EXPECT_EQ(opened->scope.last_day, "2026-03-31");
    EXPECT_EQ(opened->position.direction, "next");
    EXPECT_EQ(opened->position.value_date, "2026-02-14");
    EXPECT_EQ(opened->position.entry_id, 123456789);
    EXPECT_EQ(opened->position.balance_minor, -4200);
}

TEST(StatementCursor, TheBalanceIsNotReadableInTheToken) {
    const std::string token = seal_statement_cursor(test_key(), sample_cursor());
    const auto bytes = corebank::core::base64url_decode(token);
    ASSERT_TRUE(bytes.has_value());
    EXPECT_EQ(bytes->find("-4200"), std::string::npos);
    EXPECT_EQ(bytes->find(account), std::string::npos);
}

TEST(StatementCursor, EveryAlteredByteIsRefused) {
    // Bytes, not characters: the last base64url character may carry unused
    // bits, and changing only those leaves the same bytes (the same cursor).
    const std::string token = seal_statement_cursor(test_key(), sample_cursor());
    const auto sealed = corebank::core::base64url_decode(token);
    ASSERT_TRUE(sealed.has_value());
    for (std::size_t i = 0; i < sealed->size(); ++i) {
        for (const unsigned char mask : {0x01, 0x80}) {
            std::string altered = *sealed;
            altered[i] = static_cast<char>(static_cast<unsigned char>(altered[i]) ^ mask);
            EXPECT_FALSE(open_statement_cursor(test_key(), corebank::core::base64url_encode(altered)).has_value())
                << "byte " << i << " mask " << int(mask);
        }
    }
    const std::string shorter = corebank::core::base64url_encode(sealed->substr(0, sealed->size() - 1));
    EXPECT_FALSE(open_statement_cursor(test_key(), shorter).has_value());
    EXPECT_FALSE(open_statement_cursor(test_key(), corebank::core::base64url_encode(*sealed + "x")).has_value());
    EXPECT_FALSE(open_statement_cursor(test_key(), token.substr(0, token.size() / 2)).has_value());
}

TEST(StatementCursor, GarbageAndOtherKeysAreRefused) {
    EXPECT_FALSE(open_statement_cursor(test_key(), "").has_value());
    EXPECT_FALSE(open_statement_cursor(test_key(), "not a cursor").has_value());
    EXPECT_FALSE(open_statement_cursor(test_key(), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").has_value());
    EXPECT_FALSE(open_statement_cursor(test_key(), std::string(statement_cursor_chars_max + 1, 'A')).has_value());
    const std::string token = seal_statement_cursor(test_key(), sample_cursor());
    EXPECT_FALSE(open_statement_cursor(statement_cursor_key(std::string(32, 'K')), token).has_value());
    // The cursor key is not the data key itself: a cursor never opens under it.
    EXPECT_FALSE(open_statement_cursor(std::string(32, 'k'), token).has_value());
}

TEST(StatementCursor, TheKeyNeedsA32ByteDataKey) {
    EXPECT_THROW(statement_cursor_key("short"), std::invalid_argument);
    EXPECT_EQ(test_key().size(), 32u);
    EXPECT_EQ(test_key(), statement_cursor_key(std::string(32, 'k')));
}

TEST(StatementCursor, LimitDefaultsTo100AndIsBounded) {
    EXPECT_EQ(query_statement_page(request_with({})).limit, 100);
    EXPECT_EQ(query_statement_page(request_with({{"limit", "1"}})).limit, 1);
    EXPECT_EQ(query_statement_page(request_with({{"limit", "1000"}})).limit, 1000);
    for (const char* bad : {"0", "1001", "-5", "ten", "10.5", "99999999999999999999"}) {
        const ApiError error = error_of([&] { query_statement_page(request_with({{"limit", bad}})); });
        EXPECT_EQ(error.status, 400) << bad;
        EXPECT_EQ(error.code, "BAD_REQUEST") << bad;
        EXPECT_STREQ(error.what(), "limit: must be an integer from 1 to 1000") << bad;
    }
}

TEST(StatementCursor, CursorIsReadUpToItsLimit) {
    EXPECT_FALSE(query_statement_page(request_with({})).cursor_token.has_value());
    EXPECT_EQ(*query_statement_page(request_with({{"cursor", "abc"}})).cursor_token, "abc");
    const ApiError error = error_of(
        [&] { query_statement_page(request_with({{"cursor", std::string(statement_cursor_chars_max + 1, 'a')}})); });
    EXPECT_EQ(error.status, 400);
    EXPECT_EQ(std::string(error.what()).rfind("cursor: ", 0), 0u) << error.what();
}

TEST(StatementCursor, FirstPageHasNoCursor) {
    const auto page = query_statement_page(request_with({{"from", "2026-01-01"}}));
    EXPECT_FALSE(statement_cursor_for(test_key(), account, page).has_value());
}

TEST(StatementCursor, AGenuineCursorOfThisStatementIsAccepted) {
    const std::string token = seal_statement_cursor(test_key(), sample_cursor());
    const auto page = query_statement_page(request_with({{"from", "2026-01-01"}, {"cursor", token}}));
    // The path's id may come in upper case; the cursor holds it in lower case.
    std::string upper_account = account;
    for (char& c : upper_account) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const auto cursor = statement_cursor_for(test_key(), upper_account, page);
    ASSERT_TRUE(cursor.has_value());
    EXPECT_EQ(cursor->position.entry_id, 123456789);
}

TEST(StatementCursor, ACursorOfAnotherAccountOrRangeIsForeign) {
    const std::string token = seal_statement_cursor(test_key(), sample_cursor());
    const auto refused = [&](const std::string& id, std::map<std::string, std::string> query) {
        query["cursor"] = token;
        const auto page = query_statement_page(request_with(query));
        const ApiError error = error_of([&] { statement_cursor_for(test_key(), id, page); });
        EXPECT_EQ(error.status, 400);
        EXPECT_EQ(error.code, "BAD_REQUEST");
        EXPECT_STREQ(error.what(), "cursor: is not valid for this statement");
    };
    refused(other_account, {{"from", "2026-01-01"}});
    refused(account, {{"from", "2026-01-02"}});
    refused(account, {});
    refused(account, {{"from", "2026-01-01"}, {"to", "2026-03-31"}});
}

TEST(StatementCursor, ATamperedCursorIsNotValid) {
    std::string token = seal_statement_cursor(test_key(), sample_cursor());
    token[token.size() / 2] = token[token.size() / 2] == 'x' ? 'y' : 'x';
    const auto page = query_statement_page(request_with({{"from", "2026-01-01"}, {"cursor", token}}));
    const ApiError error = error_of([&] { statement_cursor_for(test_key(), account, page); });
    EXPECT_EQ(error.status, 400);
    EXPECT_STREQ(error.what(), "cursor: is not valid");
}

TEST(StatementCursor, PlainCursorsOfThePageAreSealed) {
    nlohmann::json page = {{"from", "2026-01-01"},
                           {"to", "2026-03-31"},
                           {"nextCursor",
                            {{"direction", "next"}, {"valueDate", "2026-02-14"}, {"entryId", 42}, {"balanceMinor", 700}}},
                           {"previousCursor", nullptr},
                           {"lines", nlohmann::json::array()}};
    const DatePeriod requested{std::string("2026-01-01"), std::nullopt};
    const nlohmann::json sealed = seal_page_cursors(test_key(), page, account, requested);
    EXPECT_TRUE(sealed["previousCursor"].is_null());
    ASSERT_TRUE(sealed["nextCursor"].is_string());
    const auto opened = open_statement_cursor(test_key(), sealed["nextCursor"].get<std::string>());
    ASSERT_TRUE(opened.has_value());
    EXPECT_EQ(opened->scope.account_id, account);
    EXPECT_EQ(opened->scope.requested_from, "2026-01-01");
    EXPECT_EQ(opened->scope.requested_to, "");
    EXPECT_EQ(opened->scope.last_day, "2026-03-31");
    EXPECT_EQ(opened->position.direction, "next");
    EXPECT_EQ(opened->position.entry_id, 42);
    EXPECT_EQ(opened->position.balance_minor, 700);
    EXPECT_EQ(sealed["lines"], nlohmann::json::array());
}

TEST(StatementCursor, AMalformedPlainCursorIsAServerFault) {
    nlohmann::json page = {{"from", "2026-01-01"}, {"to", "2026-03-31"}, {"nextCursor", {{"direction", "sideways"}}}};
    EXPECT_THROW(seal_page_cursors(test_key(), page, account, DatePeriod{}), std::runtime_error);
}

}  // namespace
