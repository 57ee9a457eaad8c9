// statement_cursor.cpp: see statement_cursor.hpp.
#include "banking/deposits/statement_cursor.hpp"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <charconv>
#include <vector>

#include "api_error.hpp"
#include "core/base64url.hpp"
#include "core/crypto.hpp"
#include "json_util.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

// Bumped when the plaintext layout changes: older tokens then fail to open
// as "cursor: is not valid" and the client starts again from the first page.
constexpr std::string_view cursor_version = "v1";
constexpr std::string_view cursor_associated = "corebank.statement_cursor.v1";
constexpr std::size_t cursor_fields = 10;

std::string lower_ascii(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::optional<std::int64_t> parse_int64(std::string_view text) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    // Bounded: a plaintext longer than a cursor never reaches here (the token is at most 512 characters).
    while (fields.size() <= cursor_fields) {
        const std::size_t end = text.find('\n', start);
        fields.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return fields;
}

bool is_optional_date(const std::string& text) { return text.empty() || is_iso_date(text); }

// The parts of the database's plain cursor ({direction, valueDate, entryId,
// balanceMinor}); nullopt when it is not one (the database broke its contract).
std::optional<StatementPosition> position_of(const nlohmann::json& plain) {
    StatementPosition position;
    position.direction = json_string(plain, "direction");
    position.value_date = json_string(plain, "valueDate");
    const auto entry = plain.find("entryId");
    const auto balance = plain.find("balanceMinor");
    if (entry == plain.end() || !entry->is_number_integer() || balance == plain.end() ||
        !balance->is_number_integer())
        return std::nullopt;
    position.entry_id = entry->get<std::int64_t>();
    position.balance_minor = balance->get<std::int64_t>();
    if (position.direction != "next" && position.direction != "previous") return std::nullopt;
    if (!is_iso_date(position.value_date) || position.entry_id < 1) return std::nullopt;
    return position;
}

}  // namespace

std::string statement_cursor_key(std::string_view data_key) {
    if (data_key.size() != core::data_key_bytes) throw std::invalid_argument("the data key must be 32 bytes");
    return core::hmac_sha256(data_key, "corebank/statement-cursor/v1");
}

std::string seal_statement_cursor(std::string_view key, const StatementCursor& cursor) {
    assert(cursor.position.direction == "next" || cursor.position.direction == "previous");
    assert(is_iso_date(cursor.position.value_date) && is_iso_date(cursor.scope.first_day));
    const StatementScope& scope = cursor.scope;
    const StatementPosition& position = cursor.position;
    std::string plain;
    for (const std::string_view field :
         {cursor_version, std::string_view(scope.account_id), std::string_view(scope.requested_from),
          std::string_view(scope.requested_to), std::string_view(scope.first_day), std::string_view(scope.last_day),
          std::string_view(position.direction), std::string_view(position.value_date)}) {
        assert(field.find('\n') == std::string_view::npos);
        plain.append(field).push_back('\n');
    }
    plain.append(std::to_string(position.entry_id)).push_back('\n');
    plain.append(std::to_string(position.balance_minor));
    return core::base64url_encode(core::aead_seal(key, plain, cursor_associated));
}

std::optional<StatementCursor> open_statement_cursor(std::string_view key, std::string_view token) {
    if (token.empty() || token.size() > statement_cursor_chars_max) return std::nullopt;
    const auto sealed = core::base64url_decode(token);
    if (!sealed) return std::nullopt;
    const auto plain = core::aead_open(key, *sealed, cursor_associated);
    if (!plain) return std::nullopt;
    // Authentic from here on; the checks below guard against a layout this
    // code does not know (a token of another version under the same key).
    const auto fields = split_lines(*plain);
    if (fields.size() != cursor_fields || fields[0] != cursor_version) return std::nullopt;
    StatementCursor cursor;
    cursor.scope = StatementScope{fields[1], fields[2], fields[3], fields[4], fields[5]};
    cursor.position.direction = fields[6];
    cursor.position.value_date = fields[7];
    const auto entry_id = parse_int64(fields[8]);
    const auto balance = parse_int64(fields[9]);
    if (!entry_id || !balance || *entry_id < 1) return std::nullopt;
    cursor.position.entry_id = *entry_id;
    cursor.position.balance_minor = *balance;
    const StatementScope& scope = cursor.scope;
    if (!is_uuid_text(scope.account_id) || !is_optional_date(scope.requested_from) ||
        !is_optional_date(scope.requested_to) || !is_iso_date(scope.first_day) || !is_iso_date(scope.last_day))
        return std::nullopt;
    if (cursor.position.direction != "next" && cursor.position.direction != "previous") return std::nullopt;
    if (!is_iso_date(cursor.position.value_date)) return std::nullopt;
    return cursor;
}

StatementPageRequest query_statement_page(const HttpRequest& request) {
    StatementPageRequest page;
    page.period = query_statement_period(request);
    page.limit = query_int(request, "limit", statement_limit_default, statement_limit_min, statement_limit_max);
    page.cursor_token = query_text(request, "cursor", statement_cursor_chars_max);
    return page;
}

std::optional<StatementCursor> statement_cursor_for(std::string_view key, const std::string& account_id,
                                                    const StatementPageRequest& page) {
    if (!page.cursor_token) return std::nullopt;
    auto cursor = open_statement_cursor(key, *page.cursor_token);
    if (!cursor) throw bad_request(statement_cursor_invalid);
    const StatementScope& scope = cursor->scope;
    if (scope.account_id != lower_ascii(account_id) || scope.requested_from != page.period.from.value_or("") ||
        scope.requested_to != page.period.to.value_or(""))
        throw bad_request(statement_cursor_foreign);
    return cursor;
}

nlohmann::json seal_page_cursors(std::string_view key, nlohmann::json page, const std::string& account_id,
                                 const DatePeriod& requested) {
    if (!page.is_object()) return page;
    const StatementScope scope{lower_ascii(account_id), requested.from.value_or(""), requested.to.value_or(""),
                               json_string(page, "from"), json_string(page, "to")};
    for (const char* member : {"nextCursor", "previousCursor"}) {
        const auto it = page.find(member);
        if (it == page.end() || it->is_null()) continue;
        const auto position = position_of(*it);
        // The database wrote this cursor: a malformed one is a broken contract, not bad input.
        if (!position || !is_iso_date(scope.first_day) || !is_iso_date(scope.last_day))
            throw std::runtime_error(std::string("core_statement returned a malformed ") + member);
        *it = seal_statement_cursor(key, StatementCursor{scope, *position});
    }
    return page;
}

}  // namespace corebank::httpd::core_banking
