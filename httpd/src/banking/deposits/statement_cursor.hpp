// statement_cursor.hpp: the keyset paging of GET /v1/accounts/{id}/statement
// (docs/deposits.md, "Statement paging"; docs/design/posting-engine.md
// section 4). The database takes a cursor as plain arguments (direction,
// value date, entry id, running balance) and returns the next and previous
// ones in that form; the tier seals them into opaque base64url tokens with
// AES-256-GCM under a key derived from the data key, so a client can neither
// read nor forge the running balance a page starts from. A token also names
// the account and the range it belongs to, so it cannot be replayed against
// another statement.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "banking/parameters.hpp"
#include "http_types.hpp"

namespace corebank::httpd::core_banking {

inline constexpr std::int64_t statement_limit_default = 100;
inline constexpr std::int64_t statement_limit_min = 1;
inline constexpr std::int64_t statement_limit_max = 1000;
// A sealed cursor is about 200 characters; anything much longer is not one.
inline constexpr std::size_t statement_cursor_chars_max = 512;

// The error messages of a cursor the tier refuses (400 BAD_REQUEST).
inline constexpr const char* statement_cursor_invalid = "cursor: is not valid";
inline constexpr const char* statement_cursor_foreign = "cursor: is not valid for this statement";

// Where a page starts: the cursor arguments of corebank.core_statement.
struct StatementPosition {
    std::string direction;   // "next" or "previous"
    std::string value_date;  // YYYY-MM-DD
    std::int64_t entry_id = 0;
    std::int64_t balance_minor = 0;
};

// What a cursor belongs to: the account, the range as the client asked for
// it (empty when from or to was left out) and the range the database
// resolved, which every later page reads, so a page never moves with the
// business date.
struct StatementScope {
    std::string account_id;  // lower case
    std::string requested_from;
    std::string requested_to;
    std::string first_day;
    std::string last_day;
};

struct StatementCursor {
    StatementScope scope;
    StatementPosition position;
};

// ?from=, ?to=, ?limit= (1 to 1,000, default 100) and ?cursor=.
struct StatementPageRequest {
    DatePeriod period;
    std::int64_t limit = statement_limit_default;
    std::optional<std::string> cursor_token;
};

// The cursor key: HMAC-SHA256 of the 32-byte data key and a fixed label, so
// a cursor can never be opened as anything else the data key seals.
std::string statement_cursor_key(std::string_view data_key);

std::string seal_statement_cursor(std::string_view key, const StatementCursor& cursor);
// nullopt for anything seal_statement_cursor did not produce under this key.
std::optional<StatementCursor> open_statement_cursor(std::string_view key, std::string_view token);

// Reads the query; throws ApiError 400 BAD_REQUEST naming the parameter.
StatementPageRequest query_statement_page(const HttpRequest& request);

// The cursor of the request, opened and checked against the account and the
// requested range; nullopt for the first page. Throws 400 BAD_REQUEST with
// statement_cursor_invalid or statement_cursor_foreign.
std::optional<StatementCursor> statement_cursor_for(std::string_view key, const std::string& account_id,
                                                    const StatementPageRequest& page);

// Replaces the database's plain nextCursor and previousCursor of `page` by
// sealed tokens bound to the account and the requested range (null stays null).
nlohmann::json seal_page_cursors(std::string_view key, nlohmann::json page, const std::string& account_id,
                                 const DatePeriod& requested);

}  // namespace corebank::httpd::core_banking
