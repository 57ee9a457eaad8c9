// ledger.cpp: see ledger.hpp.
//
// JSON is read with nlohmann through a SAX adapter that keeps every
// non-integer number as its exact source text (a string), so that a decimal
// `amount` such as 12.34 is never rounded through a double, and an
// `amountMinor` of 12.5 is refused instead of truncated.
#include "core/ledger.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace corebank::core::ledger {

namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 22> transaction_types = {
    "DEPOSIT",           "WITHDRAWAL",        "TRANSFER",           "INTEREST_ACCRUAL",   "FEE",
    "LOAN_DISBURSEMENT", "LOAN_REPAYMENT",    "ADJUSTMENT",         "ZIPIT_SEND",         "ZIPIT_RECEIVE",
    "RTGS_SEND",         "RTGS_RECEIVE",      "MOBILE_MONEY_SEND",  "MOBILE_MONEY_RECEIVE", "SALARY_PAYMENT",
    "BULK_PAYMENT",      "BILL_PAYMENT",      "PAYMENT_REVERSAL",   "INVESTMENT_PURCHASE", "INVESTMENT_MATURITY",
    "INVESTMENT_SALE",   "INVESTMENT_INTEREST"};

constexpr int minor_units_max = 4;
constexpr std::size_t json_depth_max = 8;

/*---- parsing ----*/

// Forwards to nlohmann's DOM builder, except that floating-point numbers
// become strings holding their source text.
class ExactNumberSax {
public:
    explicit ExactNumberSax(json& root) : dom_(root, true) {}

    bool null() { return dom_.null(); }
    bool boolean(bool value) { return dom_.boolean(value); }
    bool number_integer(json::number_integer_t value) { return dom_.number_integer(value); }
    bool number_unsigned(json::number_unsigned_t value) { return dom_.number_unsigned(value); }
    bool number_float(json::number_float_t /*value*/, const json::string_t& text) {
        json::string_t copy = text;
        return dom_.string(copy);
    }
    bool string(json::string_t& value) { return dom_.string(value); }
    bool binary(json::binary_t& value) { return dom_.binary(value); }
    bool start_object(std::size_t elements) { return enter() && dom_.start_object(elements); }
    bool key(json::string_t& value) { return dom_.key(value); }
    bool end_object() { --depth_; return dom_.end_object(); }
    bool start_array(std::size_t elements) { return enter() && dom_.start_array(elements); }
    bool end_array() { --depth_; return dom_.end_array(); }
    template <typename Exception>
    bool parse_error(std::size_t position, const std::string& token, const Exception& error) {
        return dom_.parse_error(position, token, error);
    }

private:
    // Requests are shallow; a deeply nested body is refused, not recursed into.
    bool enter() {
        ++depth_;
        if (depth_ > json_depth_max) throw CoreError(sqlstate_validation, "request: is nested too deeply");
        return true;
    }

    nlohmann::detail::json_sax_dom_parser<json> dom_;
    std::size_t depth_ = 0;
};

[[noreturn]] void invalid(const std::string& field, const std::string& reason) {
    throw CoreError(sqlstate_validation, field + ": " + reason);
}

json parse_json(std::string_view text) {
    if (text.size() > request_bytes_max) invalid("request", "must be at most 1 MiB");
    json root;
    ExactNumberSax sax(root);
    bool ok = false;
    try {
        ok = json::sax_parse(text.begin(), text.end(), &sax);
    } catch (const json::exception&) {
        ok = false;
    }
    if (!ok) invalid("request", "must be valid JSON");
    if (!root.is_object()) invalid("request", "must be a JSON object");
    return root;
}

// A string member, or nullopt when absent, null or empty.
std::optional<std::string> text_member(const json& object, const char* key, const std::string& field,
                                       std::size_t characters_max) {
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) return std::nullopt;
    if (!found->is_string()) invalid(field, "must be a string");
    std::string value = found->get<std::string>();
    if (value.empty()) return std::nullopt;
    if (utf8_length(value) > characters_max) {
        invalid(field, "must be at most " + std::to_string(characters_max) + " characters");
    }
    for (const char c : value) {
        if (static_cast<unsigned char>(c) < 0x20) invalid(field, "must not contain control characters");
    }
    return value;
}

std::optional<std::string> uuid_member(const json& object, const char* key, const std::string& field) {
    const std::optional<std::string> text = text_member(object, key, field, 36);
    if (!text) return std::nullopt;
    std::optional<std::string> uuid = canonical_uuid(*text);
    if (!uuid) invalid(field, "must be a UUID");
    return uuid;
}

std::optional<std::string> code_member(const json& object, const char* key, const std::string& field,
                                       std::size_t length_max) {
    const std::optional<std::string> text = text_member(object, key, field, length_max);
    if (text && !is_code_text(*text, length_max)) {
        invalid(field, "must be 1 to " + std::to_string(length_max) + " of A-Z a-z 0-9 _ . -");
    }
    return text;
}

std::optional<std::string> currency_member(const json& object, const char* key, const std::string& field) {
    const std::optional<std::string> text = text_member(object, key, field, 3);
    if (text && !(text->size() == 3 && std::all_of(text->begin(), text->end(), [](char c) { return c >= 'A' && c <= 'Z'; }))) {
        invalid(field, "must be an ISO 4217 code such as USD");
    }
    return text;
}

Side side_member(const json& line, const std::string& field) {
    const std::optional<std::string> text = text_member(line, "side", field, 6);
    if (!text) invalid(field, "is required");
    const std::string side = upper_ascii(*text);
    if (side == "D" || side == "DEBIT") return Side::debit;
    if (side == "C" || side == "CREDIT") return Side::credit;
    invalid(field, "must be DEBIT or CREDIT (D or C)");
}

// amountMinor: a JSON integer (or a string of digits, for clients without
// 64-bit integers), 1..amount_minor_max.
std::optional<std::int64_t> amount_minor_member(const json& line, const std::string& field) {
    const auto found = line.find("amountMinor");
    if (found == line.end() || found->is_null()) return std::nullopt;
    std::int64_t amount = 0;
    if (found->is_number_unsigned()) {
        const std::uint64_t value = found->get<std::uint64_t>();
        if (value > static_cast<std::uint64_t>(amount_minor_max)) invalid(field, "is too large");
        amount = static_cast<std::int64_t>(value);
    } else if (found->is_number_integer()) {
        amount = found->get<std::int64_t>();
    } else if (found->is_string()) {
        const std::string& text = found->get_ref<const std::string&>();
        const std::optional<std::int64_t> parsed = decimal_to_minor(text, 0);
        if (!parsed) invalid(field, "must be a positive integer number of minor units");
        amount = *parsed;
    } else {
        invalid(field, "must be a positive integer number of minor units");
    }
    if (amount <= 0) invalid(field, "must be greater than zero");
    if (amount > amount_minor_max) invalid(field, "is too large");
    return amount;
}

// amount (manual journals): a decimal with at most 2 places, as a string or
// a JSON number (kept exact by ExactNumberSax).
std::optional<std::int64_t> decimal_amount_member(const json& line, const std::string& field) {
    const auto found = line.find("amount");
    if (found == line.end() || found->is_null()) return std::nullopt;
    std::string text;
    if (found->is_string()) {
        text = found->get<std::string>();
    } else if (found->is_number_integer()) {
        text = found->dump();
    } else {
        invalid(field, "must be a decimal amount such as \"12.34\"");
    }
    const std::optional<std::int64_t> amount = decimal_to_minor(text, 2);
    if (!amount) invalid(field, "must be a positive decimal amount with at most 2 decimals");
    if (*amount <= 0) invalid(field, "must be greater than zero");
    return amount;
}

Line parse_line(const json& item, const std::string& list, std::size_t index, Dialect dialect) {
    const std::string at = list + "[" + std::to_string(index) + "]";
    if (!item.is_object()) invalid(at, "must be an object");
    Line line;
    line.gl_account_id = uuid_member(item, "glAccountId", at + ".glAccountId");
    line.account_id = uuid_member(item, "accountId", at + ".accountId");
    line.currency = currency_member(item, "currency", at + ".currency");
    line.side = side_member(item, at + ".side");
    line.narrative = text_member(item, "narrative", at + ".narrative", narrative_length_max);

    std::optional<std::int64_t> amount = amount_minor_member(item, at + ".amountMinor");
    if (dialect == Dialect::manual_journal) {
        line.gl_account_code = code_member(item, "glAccountCode", at + ".glAccountCode", gl_code_length_max);
        const std::optional<std::int64_t> decimal = decimal_amount_member(item, at + ".amount");
        if (amount && decimal && *amount != *decimal) invalid(at + ".amount", "does not match amountMinor");
        if (!amount) amount = decimal;
        if (!line.gl_account_id && !line.gl_account_code && !line.account_id) {
            invalid(at, "needs glAccountId, glAccountCode or accountId");
        }
        if (line.gl_account_id && line.gl_account_code) invalid(at, "give glAccountId or glAccountCode, not both");
    } else {
        if (!line.gl_account_id && !line.account_id) invalid(at, "needs glAccountId or accountId");
        if (!line.currency) invalid(at + ".currency", "is required");
    }
    if (!amount) invalid(at + ".amountMinor", "is required");
    line.amount_minor = *amount;
    return line;
}

// ledger_post names them "lines"; a manual journal (CreateTransactionRequest)
// "entries", or "lines" as well.
void parse_lines(const json& root, Dialect dialect, Request& request) {
    std::string list = "lines";
    if (dialect == Dialect::manual_journal && root.contains("entries")) {
        if (root.contains("lines")) invalid("entries", "give entries or lines, not both");
        list = "entries";
    }
    request.lines_field = list;
    const auto found = root.find(list);
    if (found == root.end() || found->is_null()) invalid(list, "is required");
    if (!found->is_array()) invalid(list, "must be an array");
    if (found->size() < lines_min || found->size() > lines_max) {
        invalid(list, "must have " + std::to_string(lines_min) + " to " + std::to_string(lines_max) + " lines");
    }
    request.lines.reserve(found->size());
    for (std::size_t index = 0; index < found->size(); ++index) {
        request.lines.push_back(parse_line((*found)[index], list, index, dialect));
    }
}

}  // namespace

Request parse_request(std::string_view json_text, Dialect dialect) {
    const json root = parse_json(json_text);
    const bool manual = dialect == Dialect::manual_journal;
    Request request;
    request.type = text_member(root, "type", "type", 32);
    if (request.type) request.type = upper_ascii(*request.type);
    if (!request.type && manual) request.type = "ADJUSTMENT";
    if (!request.type) invalid("type", "is required");
    if (!is_transaction_type(*request.type)) invalid("type", "is not a known transaction type");

    request.reference = text_member(root, "reference", "reference", reference_length_max);
    if (!request.reference && !manual) invalid("reference", "is required");
    request.description = text_member(root, "description", "description", description_length_max);
    request.value_date = text_member(root, "valueDate", "valueDate", 10);
    if (request.value_date && !is_iso_date(*request.value_date)) invalid("valueDate", "must be a date YYYY-MM-DD");
    request.branch_id = uuid_member(root, "branchId", "branchId");
    if (manual) request.branch_code = code_member(root, "branchCode", "branchCode", branch_code_length_max);
    if (!request.branch_id && !manual) invalid("branchId", "is required");
    request.channel = code_member(root, "channel", "channel", channel_length_max);
    if (!request.channel && manual) request.channel = "BRANCH";
    if (!request.channel) invalid("channel", "is required");
    if (!manual) {
        request.operator_id = uuid_member(root, "operatorId", "operatorId");
        if (!request.operator_id) invalid("operatorId", "is required");
        request.maker_id = uuid_member(root, "makerId", "makerId");
    }
    request.idempotency_key = text_member(root, "idempotencyKey", "idempotencyKey", idempotency_key_length_max);
    if (manual) request.currency = currency_member(root, "currency", "currency");
    parse_lines(root, dialect, request);
    return request;
}

bool is_transaction_type(std::string_view type) {
    return std::find(transaction_types.begin(), transaction_types.end(), type) != transaction_types.end();
}

std::optional<std::string> canonical_uuid(std::string_view text) {
    if (text.size() != 36) return std::nullopt;
    std::string uuid(text);
    for (std::size_t index = 0; index < uuid.size(); ++index) {
        char& c = uuid[index];
        if (index == 8 || index == 13 || index == 18 || index == 23) {
            if (c != '-') return std::nullopt;
            continue;
        }
        if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
    }
    return uuid;
}

std::string upper_ascii(std::string text) {
    for (char& c : text) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return text;
}

bool is_iso_date(std::string_view text, int year_min) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
    for (const std::size_t index : {0, 1, 2, 3, 5, 6, 8, 9}) {
        if (text[index] < '0' || text[index] > '9') return false;
    }
    const int year = std::stoi(std::string(text.substr(0, 4)));
    const int month = std::stoi(std::string(text.substr(5, 2)));
    const int day = std::stoi(std::string(text.substr(8, 2)));
    if (year < year_min || month < 1 || month > 12 || day < 1) return false;
    static constexpr std::array<int, 12> days_in_month = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    const int days = days_in_month[static_cast<std::size_t>(month - 1)] + (month == 2 && leap ? 1 : 0);
    return day <= days;
}

bool is_period(std::string_view text) {
    if (text.size() != 7 || text[4] != '-') return false;
    for (const std::size_t index : {0, 1, 2, 3, 5, 6}) {
        if (text[index] < '0' || text[index] > '9') return false;
    }
    const int month = (text[5] - '0') * 10 + (text[6] - '0');
    return text.substr(0, 4) >= "1900" && month >= 1 && month <= 12;
}

bool is_code_text(std::string_view text, std::size_t length_max) {
    if (text.empty() || text.size() > length_max) return false;
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
               c == '-';
    });
}

std::optional<std::int64_t> decimal_to_minor(std::string_view text, int minor_units) {
    if (minor_units < 0 || minor_units > minor_units_max) return std::nullopt;
    const std::size_t point = text.find('.');
    const std::string_view whole = text.substr(0, point);
    const std::string_view fraction = point == std::string_view::npos ? std::string_view{} : text.substr(point + 1);
    if (whole.empty() || whole.size() > 18) return std::nullopt;
    if (point != std::string_view::npos && (fraction.empty() || fraction.size() > static_cast<std::size_t>(minor_units))) {
        return std::nullopt;
    }
    std::int64_t value = 0;
    for (const char c : whole) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
        if (value > amount_minor_max) return std::nullopt;
    }
    for (int place = 0; place < minor_units; ++place) {
        const std::size_t index = static_cast<std::size_t>(place);
        const char c = index < fraction.size() ? fraction[index] : '0';
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
        if (value > amount_minor_max) return std::nullopt;
    }
    return value;
}


std::optional<std::string> unbalanced_currency(const std::vector<Line>& lines) {
    // Debits minus credits per currency; bounded by lines_max * amount_minor_max.
    std::map<std::string, std::int64_t> net;
    for (const Line& line : lines) {
        if (!line.currency) throw CoreError(sqlstate_internal, "unbalanced_currency: a line has no currency");
        const std::int64_t signed_amount = line.side == Side::debit ? line.amount_minor : -line.amount_minor;
        net[*line.currency] += signed_amount;
    }
    for (const auto& [currency, difference] : net) {
        if (difference != 0) return currency;
    }
    return std::nullopt;
}

}  // namespace corebank::core::ledger
