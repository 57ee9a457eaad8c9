// ledger.hpp: the ledger's input rules, in pure C++ (docs/design/ledger.md).
//
// A posting request (corebank.ledger_post) and a manual journal
// (corebank.core_transaction_capture) arrive as JSON. parse_request() reads
// one into a Request, checking every field against the limits below, and
// throws CoreError CBV00 with a "field: reason" message naming the first bad
// field (lines are named lines[i], 0-based, as in the JSON). The rules that
// need the database (accounts exist and are active, periods, limits) are
// decided by the extension after parsing.
//
// Shared with the tier so that it can refuse a malformed body early with the
// same messages; the extension always checks again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/limits.hpp"
#include "core/utf8.hpp"

namespace corebank::core::ledger {

// Bounds. A line's amount is at most limits::amount_minor_max (10^15 minor
// units), which keeps the sum of 256 lines far inside a bigint.
inline constexpr std::size_t lines_min = 2;
inline constexpr std::size_t lines_max = 256;
using limits::amount_minor_max;
inline constexpr std::size_t reference_length_max = 64;
inline constexpr std::size_t description_length_max = 500;
inline constexpr std::size_t narrative_length_max = 500;
inline constexpr std::size_t channel_length_max = 32;
inline constexpr std::size_t idempotency_key_length_max = 128;
inline constexpr std::size_t gl_code_length_max = 20;
inline constexpr std::size_t branch_code_length_max = 10;
inline constexpr std::size_t request_bytes_max = 1024 * 1024;

static_assert(amount_minor_max * static_cast<std::int64_t>(lines_max) < INT64_MAX / 4,
              "the sum of one transaction's lines must not come near the bigint range");
static_assert(lines_min >= 2, "a double entry needs two lines");

enum class Side : char { debit = 'D', credit = 'C' };

struct Line {
    std::optional<std::string> gl_account_id;    // canonical UUID text
    std::optional<std::string> gl_account_code;  // manual journals only
    std::optional<std::string> account_id;       // ledger (customer) account, canonical UUID text
    std::optional<std::string> currency;         // ISO code; manual journals may leave it to the GL account
    Side side = Side::debit;
    std::int64_t amount_minor = 0;
    std::optional<std::string> narrative;
};

struct Request {
    std::optional<std::string> type;
    std::optional<std::string> reference;
    std::optional<std::string> description;
    std::optional<std::string> value_date;  // YYYY-MM-DD
    std::optional<std::string> branch_id;   // canonical UUID text
    std::optional<std::string> branch_code;
    std::optional<std::string> channel;
    std::optional<std::string> operator_id;
    std::optional<std::string> maker_id;
    std::optional<std::string> idempotency_key;
    std::optional<std::string> currency;    // manual journals: default currency of the lines
    std::string lines_field = "lines";      // the member the lines came from ("lines" or "entries")
    std::vector<Line> lines;
};

// ledger_post: the internal posting contract (type, reference, branchId,
// channel, operatorId required; every line names its currency and a GL
// account or a ledger account by id; amounts in amountMinor).
// manual_journal: CreateTransactionRequest (lines under "entries", or
// "lines"; type defaults to ADJUSTMENT, reference to a generated number,
// channel to BRANCH; lines may name the GL
// account by glAccountCode, and give `amount` as a decimal instead of
// amountMinor; operatorId/makerId are never read from the body).
enum class Dialect { ledger_post, manual_journal };

Request parse_request(std::string_view json_text, Dialect dialect);

// The 22 transaction types of the specification.
bool is_transaction_type(std::string_view type);

// 8-4-4-4-12 hex digits, any case; nullopt when malformed. Lower-cased.
std::optional<std::string> canonical_uuid(std::string_view text);

// YYYY-MM-DD naming a real calendar date, years year_min..9999 (the ledger
// takes 1900 on; the money requests took any year PostgreSQL's date does).
bool is_iso_date(std::string_view text, int year_min = 1900);

// YYYY-MM with a month 01..12.
bool is_period(std::string_view text);

// A channel or similar code: 1..32 of A-Z a-z 0-9 _ . -
bool is_code_text(std::string_view text, std::size_t length_max);

// a-z upper-cased, every other byte kept (codes, currencies, sides).
std::string upper_ascii(std::string text);

// A decimal amount with at most `minor_units` decimals ("12.34", "12") to
// minor units; nullopt when malformed, negative or above amount_minor_max.
std::optional<std::int64_t> decimal_to_minor(std::string_view text, int minor_units);

// Number of UTF-8 characters (core/utf8.hpp).
using core::utf8_length;

// Balanced per currency: the first currency (in sorted order) whose debits
// and credits differ, or nullopt. Every line must have its currency set.
std::optional<std::string> unbalanced_currency(const std::vector<Line>& lines);

}  // namespace corebank::core::ledger
