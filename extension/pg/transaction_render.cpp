// transaction_render.cpp: see transaction_render.hpp.
//
// Every member follows the rule of corebank_internal.transaction_json
// (sql/ledger/transaction_json/latest.sql) so the two are equal as jsonb:
//   - amounts as corebank_internal.amount_text: the exact decimal of the
//     minor units with exactly minor_units decimals, integers only here;
//   - timestamps through corebank_internal.iso_utc itself and the value date
//     through to_jsonb (the encoding jsonb_build_object uses), both inside
//     the statement, so the format has one definition;
//   - the single-currency members (currency, amountMinor, amount) only when
//     the totals hold one currency, else null, and every absent value as a
//     null member, as jsonb_build_object keeps them.
// nlohmann first: PostgreSQL's port.h redefines snprintf, which it uses.
#include <nlohmann/json.hpp>

#include "pg/transaction_render.hpp"

#include <cstdint>
#include <map>
#include <optional>

#include "core/crypto.hpp"
#include "core/errors.hpp"
#include "pg/check.hpp"
#include "pg/guard.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::render {

namespace {

using nlohmann::json;

// journal_entries_line_no and transaction_lines_proposed_line_no: 1..256.
constexpr std::uint64_t lines_max = 256;
// currencies_minor_units: 0..4.
constexpr std::int64_t minor_units_max = 4;

// One row per line in line order (one row with NULL line columns for a
// transaction without lines); the transaction's columns repeat on every row
// and are read from the first. The lines are joined the way transaction_json
// joins them (an inner join on the currency and the GL account, an outer
// one on the customer account), and the approval is read only for a parked
// transaction. Columns:
//    1 id           2 reference      3 type          4 status       5 description
//    6 value date   7 branch id      8 branch code   9 channel     10 maker id
//   11 operator id 12 idempotency   13 reverses id  14 reversed by 15 parked change
//   16 approval    17 released      18 hash         19 stripe      20 seq
//   21 created at  22 posted at
//   23 line no     24 GL id         25 GL code      26 GL name     27 account id
//   28 account no  29 currency      30 side         31 amount      32 minor units
//   33 narrative
constexpr const char render_sql[] =
    "SELECT t.id::text, t.reference, t.type, t.status, t.description, "
    "       to_jsonb(t.value_date) #>> '{}', t.branch_id::text, b.code, t.channel, t.maker_id::text, "
    "       t.operator_id::text, t.idempotency_key, t.reverses_id::text, t.reversed_by_id::text, "
    "       t.parked_change_id::text, "
    "       CASE WHEN t.parked_change_id IS NOT NULL THEN "
    "           (SELECT corebank_internal.change_status(p.status, p.expires_at) "
    "            FROM corebank.parked_changes p WHERE p.id = t.parked_change_id) END, "
    "       t.released, t.hash, t.chain_stripe, t.chain_seq, "
    "       corebank_internal.iso_utc(t.created_at), corebank_internal.iso_utc(t.posted_at), "
    "       l.line_no, l.gl_account_id::text, l.gl_code, l.gl_name, l.ledger_account_id::text, "
    "       l.account_number, l.currency::text, l.side::text, l.amount_minor, l.minor_units, l.narrative "
    "FROM corebank.transactions t "
    "LEFT JOIN corebank.branches b ON b.id = t.branch_id "
    "LEFT JOIN LATERAL ( "
    "    SELECT x.line_no, x.gl_account_id, x.ledger_account_id, x.currency, x.side, x.amount_minor, "
    "           x.narrative, c.minor_units, g.code AS gl_code, g.name AS gl_name, a.account_number "
    "    FROM (SELECT e.line_no, e.gl_account_id, e.ledger_account_id, e.currency, e.side, e.amount_minor, "
    "                 e.narrative "
    "          FROM corebank.journal_entries e "
    "          WHERE e.transaction_id = t.id AND t.status IN ('POSTED', 'REVERSED') "
    "          UNION ALL "
    "          SELECT p.line_no, p.gl_account_id, p.ledger_account_id, p.currency, p.side, p.amount_minor, "
    "                 p.narrative "
    "          FROM corebank.transaction_lines_proposed p "
    "          WHERE p.transaction_id = t.id AND t.status IN ('PENDING', 'CANCELLED')) x "
    "    JOIN corebank.currencies c ON c.code = x.currency "
    "    JOIN corebank.gl_accounts g ON g.id = x.gl_account_id "
    "    LEFT JOIN corebank.ledger_accounts a ON a.id = x.ledger_account_id "
    ") l ON true "
    "WHERE t.id = $1::uuid "
    "ORDER BY l.line_no";

// corebank_internal.amount_text: round(minor / 10^units, units)::text, which
// for an integer is exact: the sign, the whole units, and `units` decimals
// ("12.34", "-0.05", "0.00"; "1234" when the currency has no minor unit).
std::string amount_text(std::int64_t amount_minor, std::int64_t minor_units) {
    CB_CHECK(minor_units >= 0 && minor_units <= minor_units_max);
    std::uint64_t divisor = 1;
    for (std::int64_t digit = 0; digit < minor_units; ++digit) divisor *= 10;
    // Unsigned magnitude: -INT64_MIN does not fit an int64.
    const bool negative = amount_minor < 0;
    const std::uint64_t magnitude = negative ? ~static_cast<std::uint64_t>(amount_minor) + 1
                                             : static_cast<std::uint64_t>(amount_minor);
    std::string text = negative ? "-" : "";
    text += std::to_string(magnitude / divisor);
    if (minor_units > 0) {
        const std::string fraction = std::to_string(magnitude % divisor);
        text += '.';
        text.append(static_cast<std::size_t>(minor_units) - fraction.size(), '0');
        text += fraction;
    }
    return text;
}

json text_or_null(const std::optional<std::string>& value) { return value ? json(*value) : json(nullptr); }

json int_or_null(const std::optional<std::int64_t>& value) { return value ? json(*value) : json(nullptr); }

// A currency's sums over the lines, as the totals member shows them.
struct CurrencyTotal {
    std::int64_t minor_units = 0;
    std::int64_t debit_minor = 0;
    std::int64_t credit_minor = 0;
};

void add_checked(std::int64_t* sum, std::int64_t amount) {
    // Lines are at most 256 of at most 10^15 each, so this never fires on
    // stored data; it keeps a sum from wrapping if that ever changes.
    CB_CHECK(!__builtin_add_overflow(*sum, amount, sum));
}

json render_line(std::uint64_t row, std::map<std::string, CurrencyTotal>* totals) {
    const std::string currency = spi::get_text(row, 29).value();
    const std::string side = spi::get_text(row, 30).value();
    const std::int64_t amount_minor = spi::get_int(row, 31).value();
    const std::int64_t minor_units = spi::get_int(row, 32).value();
    CB_CHECK(side == "D" || side == "C");

    CurrencyTotal& total = (*totals)[currency];
    total.minor_units = minor_units;
    add_checked(side == "D" ? &total.debit_minor : &total.credit_minor, amount_minor);

    return json{{"lineNo", spi::get_int(row, 23).value()},
                {"glAccountId", spi::get_text(row, 24).value()},
                {"glAccountCode", spi::get_text(row, 25).value()},
                {"glAccountName", spi::get_text(row, 26).value()},
                {"accountId", text_or_null(spi::get_text(row, 27))},
                {"accountNumber", text_or_null(spi::get_text(row, 28))},
                {"currency", currency},
                {"side", side == "D" ? "DEBIT" : "CREDIT"},
                {"amountMinor", amount_minor},
                {"amount", amount_text(amount_minor, minor_units)},
                {"narrative", text_or_null(spi::get_text(row, 33))}};
}

// The response of the transaction in the rows of the last execute().
json render_rows(std::uint64_t rows) {
    CB_CHECK(rows >= 1 && rows <= lines_max);
    json entries = json::array();
    // Ordered by currency code, as the totals are (codes are ^[A-Z]{3}$,
    // so byte order is every collation's order).
    std::map<std::string, CurrencyTotal> totals_by_currency;
    for (std::uint64_t row = 0; row < rows; ++row) {
        if (!spi::get_int(row, 23)) {
            CB_CHECK(rows == 1);  // the outer join's row of a transaction without lines
            break;
        }
        entries.push_back(render_line(row, &totals_by_currency));
    }

    json totals = json::array();
    for (const auto& [currency, total] : totals_by_currency) {
        totals.push_back(json{{"currency", currency},
                              {"debitMinor", total.debit_minor},
                              {"creditMinor", total.credit_minor},
                              {"debit", amount_text(total.debit_minor, total.minor_units)},
                              {"credit", amount_text(total.credit_minor, total.minor_units)}});
    }
    // A single-currency transaction has one amount: its debits (= its credits).
    const bool single_currency = totals.size() == 1;

    const std::optional<std::string> hash = spi::get_bytea(0, 18);
    const std::string status = spi::get_text(0, 4).value();
    json response{
        {"id", spi::get_text(0, 1).value()},
        {"reference", spi::get_text(0, 2).value()},
        {"type", spi::get_text(0, 3).value()},
        {"status", status},
        {"state", status},
        {"description", text_or_null(spi::get_text(0, 5))},
        {"valueDate", spi::get_text(0, 6).value()},
        {"branchId", spi::get_text(0, 7).value()},
        {"branchCode", text_or_null(spi::get_text(0, 8))},
        {"channel", spi::get_text(0, 9).value()},
        {"makerId", text_or_null(spi::get_text(0, 10))},
        {"operatorId", spi::get_text(0, 11).value()},
        {"idempotencyKey", text_or_null(spi::get_text(0, 12))},
        {"reversesId", text_or_null(spi::get_text(0, 13))},
        {"reversedById", text_or_null(spi::get_text(0, 14))},
        {"parkedChangeId", text_or_null(spi::get_text(0, 15))},
        {"approvalStatus", text_or_null(spi::get_text(0, 16))},
        {"released", spi::get_bool(0, 17).value()},
        {"currency", single_currency ? totals[0]["currency"] : json(nullptr)},
        {"amountMinor", single_currency ? totals[0]["debitMinor"] : json(nullptr)},
        {"amount", single_currency ? totals[0]["debit"] : json(nullptr)},
        {"totals", totals},
        {"entries", entries},
        // The hash-chain link (hex SHA-256), and where it sits.
        {"hash", hash ? json(core::hex_encode(*hash)) : json(nullptr)},
        {"chain", hash ? json{{"stripe", int_or_null(spi::get_int(0, 19))}, {"seq", int_or_null(spi::get_int(0, 20))}}
                       : json(nullptr)},
        {"createdAt", text_or_null(spi::get_text(0, 21))},
        {"postedAt", text_or_null(spi::get_text(0, 22))}};
    return response;
}

}  // namespace

Datum transaction_response(const std::string& transaction_id, bool* found) {
    CB_CHECK(found != nullptr);
    const std::uint64_t rows = spi::execute_generic(render_sql, {spi::Arg::text(transaction_id)});
    *found = rows > 0;
    if (!*found) return static_cast<Datum>(0);
    const std::string text = render_rows(rows).dump();
    spi::free_result();
    const char* json_text = text.c_str();
    return pg_guard([&]() noexcept {
        // Parsed in SPI's memory, then copied to the caller's context (as
        // spi::get_jsonb_for_return does), so it outlives spi::finish().
        const Datum parsed = DirectFunctionCall1(jsonb_in, CStringGetDatum(json_text));
        return SPI_datumTransfer(parsed, false, -1);
    });
}

}  // namespace corebank::pg::render
