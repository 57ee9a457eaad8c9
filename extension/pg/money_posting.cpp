// money_posting.cpp: see money_posting.hpp.
//
// The member reads and database checks interleave in the order of the
// PL/pgSQL functions this replaces (1.7's money_run and money_<op>_posting),
// which the pgTAP and end-to-end tests of every error pin down.
// nlohmann first: PostgreSQL's port.h redefines snprintf, which it uses.
#include <nlohmann/json.hpp>

#include "pg/money_posting.hpp"

#include <map>
#include <set>
#include <vector>

#include "core/crypto.hpp"
#include "core/errors.hpp"
#include "core/interest.hpp"
#include "core/money_request.hpp"
#include "core/posting_rules.hpp"
#include "pg/check.hpp"
#include "pg/deposits_posting.hpp"
#include "pg/ledger_common.hpp"
#include "pg/ledger_posting.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::money {

namespace {

using core::money_request::Member;
using nlohmann::json;
namespace mr = core::money_request;
namespace rules = core::posting_rules;


/*---- statements ----*/

// The deposit accounts of the operation, with what the money rules read of
// their product. Not locked here: the posting locks them
// (posting::load_accounts), debited ones before credited ones, and a credit
// to an account another posting holds does not wait (a hot account). What is
// read here does not move with postings (the status, which does, is judged
// again under the posting's lock).
constexpr const char read_accounts_sql[] =
    "SELECT a.id::text, a.account_number, a.currency::text, a.branch_id::text, d.customer_id::text, d.account_type, "
    "       coalesce(p.internal, false), p.withdrawal_fee_minor, p.early_withdrawal_penalty_bp, "
    "       to_char(d.maturity_date, 'YYYY-MM-DD') "
    "FROM corebank.ledger_accounts a "
    "JOIN corebank.deposit_accounts d ON d.id = a.id "
    "JOIN corebank.deposit_products p ON p.id = d.product_id "
    "WHERE a.id = ANY ($1::uuid[])";

// A fixed deposit's funding is serialised on its row: two first deposits in
// flight must not both see it unfunded. The operation's accounts are locked
// together, in id order (the order of every locker of these rows).
constexpr const char lock_accounts_sql[] =
    "SELECT 1 FROM corebank.ledger_accounts a WHERE a.id = ANY ($1::uuid[]) ORDER BY a.id FOR NO KEY UPDATE";

constexpr const char has_entries_sql[] =
    "SELECT EXISTS (SELECT FROM corebank.journal_entries e WHERE e.ledger_account_id = $1::uuid)";

constexpr const char gl_by_code_sql[] =
    "SELECT g.id::text, g.type, g.active FROM corebank.gl_accounts g WHERE g.code = $1 AND g.currency = $2::bpchar";

constexpr const char business_date_sql[] = "SELECT to_char(corebank_internal.business_today(), 'YYYY-MM-DD')";

constexpr const char branch_by_id_sql[] = "SELECT b.id::text FROM corebank.branches b WHERE b.id = $1::uuid";

constexpr const char branch_by_code_sql[] = "SELECT b.id::text FROM corebank.branches b WHERE b.code = $1";

constexpr const char head_office_sql[] =
    "SELECT b.id::text FROM corebank.branches b WHERE b.is_head_office LIMIT 1";

constexpr const char fx_rate_sql[] =
    "SELECT r.rate::text FROM corebank_internal.fx_rate_in_force($1, $2, $3::date) r";

/*---- facts ----*/

struct MoneyAccount {
    std::string id;
    std::string number;
    std::string currency;
    std::string branch_id;
    std::optional<std::string> customer_id;
    std::string account_type;
    bool internal = false;
    std::int64_t withdrawal_fee_minor = 0;
    std::int32_t penalty_bp = 0;
    std::optional<std::string> maturity_date;  // YYYY-MM-DD
};

std::map<std::string, MoneyAccount> read_accounts(const std::vector<std::string>& ids) {
    const std::uint64_t rows = spi::execute_generic(read_accounts_sql, {spi::Arg::uuid_column(ids)});
    std::map<std::string, MoneyAccount> accounts;
    for (std::uint64_t row = 0; row < rows; ++row) {
        MoneyAccount account;
        account.id = spi::get_text(row, 1).value();
        account.number = spi::get_text(row, 2).value();
        account.currency = spi::get_text(row, 3).value();
        account.branch_id = spi::get_text(row, 4).value();
        account.customer_id = spi::get_text(row, 5);
        account.account_type = spi::get_text(row, 6).value();
        account.internal = spi::get_bool(row, 7).value();
        account.withdrawal_fee_minor = spi::get_int(row, 8).value();
        account.penalty_bp = static_cast<std::int32_t>(spi::get_int(row, 9).value());
        account.maturity_date = spi::get_text(row, 10);
        CB_CHECK(account.withdrawal_fee_minor >= 0 && account.penalty_bp >= 0);
        accounts.emplace(account.id, std::move(account));
    }
    return accounts;
}

const MoneyAccount& found_account(const std::map<std::string, MoneyAccount>& accounts, const std::string& id) {
    const auto found = accounts.find(id);
    if (found == accounts.end()) ledger::fail(core::sqlstate_not_found, "Account not found");
    return found->second;
}

bool has_entries(const std::string& account_id) {
    CB_CHECK(spi::execute(has_entries_sql, {spi::Arg::text(account_id)}) == 1);
    return spi::get_bool(0, 1).value();
}

struct GlAccount {
    rules::GlTypeFacts facts;
    std::optional<std::string> id;
};

GlAccount gl_by_code(const std::string& code, const std::string& currency) {
    GlAccount gl;
    if (spi::execute(gl_by_code_sql, {spi::Arg::text(code), spi::Arg::text(currency)}) == 0) return gl;
    gl.id = spi::get_text(0, 1).value();
    gl.facts = rules::GlTypeFacts{true, spi::get_text(0, 2).value(), spi::get_bool(0, 3).value()};
    return gl;
}

// corebank_internal.money_gl: the GL account a request names by code (or its default).
std::string gl_of_type(const std::optional<std::string>& code_given, const char* default_code,
                       const std::string& currency, const char* wanted_type, const char* field) {
    const std::string code = code_given.value_or(default_code);
    const GlAccount gl = gl_by_code(code, currency);
    rules::require(rules::gl_of_type(gl.facts, field, code, currency, wanted_type));
    return gl.id.value();
}

// corebank_internal.gl_id: the id, or JSON null when absent (the ledger then names the line).
json gl_id(const char* code, const std::string& currency) {
    const GlAccount gl = gl_by_code(code, currency);
    return gl.id ? json(*gl.id) : json(nullptr);
}

std::string business_date() {
    CB_CHECK(spi::execute(business_date_sql, {}) == 1);
    return spi::get_text(0, 1).value();
}

std::int64_t penalty_of(const MoneyAccount& account, std::int64_t amount_minor) {
    if (account.account_type != "FIXED_DEPOSIT" || !account.maturity_date) return 0;
    return rules::early_withdrawal_penalty(account.account_type, account.maturity_date, account.penalty_bp,
                                           amount_minor, business_date());
}

/*---- the request ----*/

// The members of the request in hand, read on demand.
class Request {
public:
    explicit Request(const JsonbArgument& jsonb) : jsonb_(jsonb) {}
    Member operator[](const char* key) const { return jsonb_.member(key); }

private:
    const JsonbArgument& jsonb_;
};

// The branch a request names (branchId, else branchCode), else the acting
// staff member's active branch, else `fallback`, else head office; CB404
// "Branch not found" when a named one does not exist. Reads both members
// first, then the database, in corebank_internal.request_branch's order. A
// request that is not an object (nullptr) names none.
std::string branch_of(const Request* request, const std::optional<std::string>& actor_id,
                      const std::optional<std::string>& fallback) {
    std::optional<std::string> branch_id;
    std::optional<std::string> branch_code;
    if (request != nullptr) {
        branch_id = mr::uuid((*request)["branchId"], "branchId");
        branch_code = mr::text((*request)["branchCode"], "branchCode", mr::branch_code_length_max);
    }
    std::optional<std::string> branch;
    if (branch_id) {
        if (spi::execute(branch_by_id_sql, {spi::Arg::text(*branch_id)}) == 1) branch = spi::get_text(0, 1);
    } else if (branch_code) {
        if (spi::execute(branch_by_code_sql, {spi::Arg::text(core::ledger::upper_ascii(*branch_code))}) == 1) {
            branch = spi::get_text(0, 1);
        }
    } else {
        // No branch named: the acting staff member's, else `fallback`, else head office.
        branch = ledger::actor_branch(actor_id);
        if (!branch) branch = fallback;
        if (!branch && spi::execute(head_office_sql, {}) == 1) branch = spi::get_text(0, 1);
    }
    if (!branch) ledger::fail(core::sqlstate_not_found, "Branch not found");
    return *branch;
}

// corebank_internal.money_header: the header members shared by the four
// operations, read in its order; branch_fallback is the account's branch.
json header(const Request& request, const char* type, const std::string& actor_id, const std::string& branch_fallback) {
    std::optional<std::string> reference = mr::trimmed(request["reference"], "reference", mr::reference_length_max);
    const std::optional<std::string> value_date = mr::date(request["valueDate"], "valueDate");
    const std::string channel = mr::channel(request["channel"]);
    const std::string branch = branch_of(&request, actor_id, branch_fallback);
    const std::optional<std::string> description =
        mr::trimmed(request["description"], "description", mr::description_length_max);
    if (!reference) reference = ledger::next_transaction_number();

    json object = {{"type", type}, {"reference", *reference}, {"branchId", branch}, {"channel", channel},
                   {"operatorId", actor_id}, {"makerId", actor_id}};
    if (description) object["description"] = *description;
    if (value_date) object["valueDate"] = *value_date;
    return object;
}

json account_line(const std::string& account_id, char side, std::int64_t amount, const std::string& currency,
                  const std::optional<std::string>& narrative) {
    json line = {{"accountId", account_id}, {"side", std::string(1, side)}, {"amountMinor", amount},
                 {"currency", currency}};
    if (narrative) line["narrative"] = *narrative;
    return line;
}

json gl_line(json gl_account_id, char side, std::int64_t amount, const std::string& currency,
             const std::optional<std::string>& narrative) {
    json line = {{"glAccountId", std::move(gl_account_id)}, {"side", std::string(1, side)}, {"amountMinor", amount},
                 {"currency", currency}};
    if (narrative) line["narrative"] = *narrative;
    return line;
}

// A deposit account named by a member (accountId): required, found.
MoneyAccount named_account(const std::optional<std::string>& id, const char* field) {
    if (!id) ledger::fail(core::sqlstate_validation, std::string(field) + ": is required");
    const std::map<std::string, MoneyAccount> accounts = read_accounts({*id});
    return found_account(accounts, *id);
}

// The currency member, upper-cased, when given.
std::optional<std::string> requested_currency(const Request& request) {
    const std::optional<std::string> given = mr::trimmed(request["currency"], "currency", mr::currency_length_max);
    return given ? std::optional(core::ledger::upper_ascii(*given)) : std::nullopt;
}

// 1.7's money_account_check: the currency, then no internal account.
void check_money_account(const Request& request, const MoneyAccount& account) {
    rules::require(rules::requested_currency(requested_currency(request), account.number, account.currency));
    rules::require(rules::not_internal(account.internal));
}

// `account` is credited; `others` are the operation's other accounts.
void check_fixed_deposit_unfunded(const MoneyAccount& account, std::vector<std::string> others = {}) {
    if (account.account_type != "FIXED_DEPOSIT") return;
    others.push_back(account.id);
    CB_CHECK(spi::execute_generic(lock_accounts_sql, {spi::Arg::uuid_column(others)}) == others.size());
    rules::require(rules::fixed_deposit_unfunded(account.account_type, has_entries(account.id), account.number));
}

std::string post_lines(json head, json lines, deposits::Rules posting_rules) {
    head["lines"] = std::move(lines);
    return deposits::post_json(head.dump(), posting_rules);
}

/*---- the operations ----*/

std::string deposit(const Request& request, const std::string& actor_id, bool customer_initiated) {
    const std::int64_t amount = mr::positive_amount(request["amountMinor"], request["amount"]);
    const MoneyAccount account = named_account(mr::uuid(request["accountId"], "accountId"), "accountId");
    check_money_account(request, account);
    check_fixed_deposit_unfunded(account);
    const std::string source = gl_of_type(
        mr::trimmed(request["sourceGlAccountCode"], "sourceGlAccountCode", mr::gl_code_length_max), "1000",
        account.currency, "ASSET", "sourceGlAccountCode");
    json head = header(request, "DEPOSIT", actor_id, account.branch_id);
    const std::string narrative =
        mr::trimmed(request["narrative"], "narrative", mr::narrative_length_max).value_or("Deposit");
    json lines = json::array({gl_line(source, 'D', amount, account.currency, std::nullopt),
                              account_line(account.id, 'C', amount, account.currency, narrative)});
    deposits::Rules posting_rules;
    if (customer_initiated) posting_rules.customer.insert(account.id);
    return post_lines(std::move(head), std::move(lines), std::move(posting_rules));
}

std::string withdrawal(const Request& request, const std::string& actor_id) {
    const std::int64_t amount = mr::positive_amount(request["amountMinor"], request["amount"]);
    const MoneyAccount account = named_account(mr::uuid(request["accountId"], "accountId"), "accountId");
    check_money_account(request, account);
    const std::string destination = gl_of_type(
        mr::trimmed(request["destinationGlAccountCode"], "destinationGlAccountCode", mr::gl_code_length_max), "1000",
        account.currency, "ASSET", "destinationGlAccountCode");
    const std::int64_t penalty = penalty_of(account, amount);
    json fee_gl = gl_id("4100", account.currency);
    const std::string narrative =
        mr::trimmed(request["narrative"], "narrative", mr::narrative_length_max).value_or("Withdrawal");
    json lines = json::array(
        {account_line(account.id, 'D', amount + account.withdrawal_fee_minor + penalty, account.currency, narrative),
         gl_line(destination, 'C', amount, account.currency, std::nullopt)});
    if (account.withdrawal_fee_minor > 0) {
        lines.push_back(gl_line(fee_gl, 'C', account.withdrawal_fee_minor, account.currency, "Withdrawal fee"));
    }
    if (penalty > 0) lines.push_back(gl_line(fee_gl, 'C', penalty, account.currency, "Early withdrawal penalty"));
    json head = header(request, "WITHDRAWAL", actor_id, account.branch_id);
    deposits::Rules posting_rules;
    posting_rules.customer.insert(account.id);
    posting_rules.minimum_balance.insert(account.id);
    return post_lines(std::move(head), std::move(lines), std::move(posting_rules));
}

std::string transfer(const Request& request, const std::string& actor_id, bool customer_initiated) {
    const std::int64_t amount = mr::positive_amount(request["amountMinor"], request["amount"]);
    const std::optional<std::string> from_id = mr::uuid(request["fromAccountId"], "fromAccountId");
    const std::optional<std::string> to_id = mr::uuid(request["toAccountId"], "toAccountId");
    std::optional<std::string> narrative =
        mr::trimmed(request["narrative"], "narrative", mr::transfer_narrative_length_max);
    if (!from_id) ledger::fail(core::sqlstate_validation, "fromAccountId: is required");
    if (!to_id) ledger::fail(core::sqlstate_validation, "toAccountId: is required");
    rules::require(rules::distinct_accounts(*from_id, *to_id));

    const std::map<std::string, MoneyAccount> accounts = read_accounts({*from_id, *to_id});
    const MoneyAccount& source = found_account(accounts, *from_id);
    const MoneyAccount& target = found_account(accounts, *to_id);
    rules::require(rules::requested_currency(requested_currency(request), source.number, source.currency));
    check_fixed_deposit_unfunded(target, {source.id});
    json head = header(request, "TRANSFER", actor_id, source.branch_id);
    const std::int64_t penalty = penalty_of(source, amount);
    if (!narrative) narrative = "Transfer " + source.number + " to " + target.number;

    json lines = json::array();
    if (source.currency == target.currency) {
        lines.push_back(account_line(source.id, 'D', amount + penalty, source.currency, narrative));
        lines.push_back(account_line(target.id, 'C', amount, target.currency, narrative));
    } else {
        const std::string value_date =
            head.contains("valueDate") ? head["valueDate"].get<std::string>() : business_date();
        std::optional<std::string> rate;
        if (spi::execute(fx_rate_sql, {spi::Arg::text(source.currency), spi::Arg::text(target.currency),
                                       spi::Arg::text(value_date)}) == 1) {
            rate = spi::get_text(0, 1);
        }
        rules::require(rules::fx_rate_found(rate.has_value(), source.currency, target.currency, value_date));
        const std::optional<std::int64_t> converted = core::interest::fx_convert(amount, *rate);
        rules::require(rules::fx_converted(converted));
        *narrative += " at " + rules::rate_text(*rate) + " " + target.currency + "/" + source.currency;
        lines.push_back(account_line(source.id, 'D', amount + penalty, source.currency, narrative));
        lines.push_back(gl_line(gl_id("2900", source.currency), 'C', amount, source.currency, narrative));
        lines.push_back(gl_line(gl_id("2900", target.currency), 'D', *converted, target.currency, narrative));
        lines.push_back(account_line(target.id, 'C', *converted, target.currency, narrative));
    }
    if (penalty > 0) {
        lines.push_back(
            gl_line(gl_id("4100", source.currency), 'C', penalty, source.currency, "Early withdrawal penalty"));
    }
    deposits::Rules posting_rules;
    if (customer_initiated) {
        posting_rules.customer.insert(source.id);
        // Between two accounts of one customer, both ends are the customer's doing.
        if (rules::same_customer(source.customer_id, target.customer_id)) posting_rules.customer.insert(target.id);
    }
    if (!source.internal) posting_rules.minimum_balance.insert(source.id);
    return post_lines(std::move(head), std::move(lines), std::move(posting_rules));
}

std::string fee(const Request& request, const std::string& actor_id) {
    const std::int64_t amount = mr::positive_amount(request["amountMinor"], request["amount"]);
    const std::optional<std::string> description =
        mr::trimmed(request["description"], "description", mr::description_length_max);
    if (!description) ledger::fail(core::sqlstate_validation, "description: is required");
    const MoneyAccount account = named_account(mr::uuid(request["accountId"], "accountId"), "accountId");
    check_money_account(request, account);
    const std::string income = gl_of_type(
        mr::trimmed(request["incomeGlAccountCode"], "incomeGlAccountCode", mr::gl_code_length_max), "4100",
        account.currency, "INCOME", "incomeGlAccountCode");
    json head = header(request, "FEE", actor_id, account.branch_id);
    json lines = json::array({account_line(account.id, 'D', amount, account.currency, description),
                              gl_line(income, 'C', amount, account.currency, description)});
    return post_lines(std::move(head), std::move(lines), deposits::Rules{});
}

const char* operation_name(Operation operation) {
    switch (operation) {
        case Operation::deposit: return "deposit";
        case Operation::withdrawal: return "withdrawal";
        case Operation::transfer: return "transfer";
        case Operation::fee: return "fee";
    }
    CB_CHECK(false);
    return "";
}

std::string post_operation(Operation operation, const Request& request, const std::string& actor_id,
                           bool customer_initiated) {
    switch (operation) {
        case Operation::deposit: return deposit(request, actor_id, customer_initiated);
        case Operation::withdrawal: return withdrawal(request, actor_id);
        case Operation::transfer: return transfer(request, actor_id, customer_initiated);
        case Operation::fee: return fee(request, actor_id);
    }
    CB_CHECK(false);
    return {};
}

void require_object(const JsonbArgument& request) {
    if (request.absent() || !request.is_object()) {
        ledger::fail(core::sqlstate_validation, "request: must be a JSON object");
    }
}

}  // namespace

std::string request_hash(Operation operation, const JsonbArgument& request) {
    // The text of jsonb_build_object('operation', <op>, 'request', <request>),
    // which 1.7 hashed: jsonb orders keys by length, "request" first.
    const std::string claimed =
        std::string("{\"request\": ") + request.text() + ", \"operation\": \"" + operation_name(operation) + "\"}";
    return core::sha256(std::string(idempotency_scope) + "\n" + claimed);
}

std::optional<Operation> operation_named(const std::string& name) {
    for (const Operation operation : {Operation::deposit, Operation::withdrawal, Operation::transfer, Operation::fee}) {
        if (name == operation_name(operation)) return operation;
    }
    return std::nullopt;
}

Datum run(Operation operation, const JsonbArgument& request, const std::optional<std::string>& actor_id) {
    if (!actor_id) ledger::fail(core::sqlstate_validation, "actor: is required");
    require_object(request);
    const Request members(request);
    const std::optional<std::string> key =
        mr::text(members["idempotencyKey"], "idempotencyKey", mr::idempotency_key_length_max);
    if (key) {
        const posting::Claim claim = posting::idempotency_claim(idempotency_scope, *key, request_hash(operation, request));
        if (claim.replay) return claim.response;
    }
    const std::string transaction_id = post_operation(operation, members, *actor_id, true);
    const Datum response = posting::render_transaction(transaction_id);
    if (!key) return response;
    // Money postings are POSTED at once: the key keeps the transaction, and a
    // replay renders it as posted, this same answer.
    return posting::idempotency_record_posted(idempotency_scope, *key, transaction_id, response);
}

std::string request_branch(const JsonbArgument& request, const std::optional<std::string>& actor_id,
                           const std::optional<std::string>& fallback) {
    // A NULL or non-object request names no branch (`request -> 'branchId'` is NULL).
    if (request.absent() || !request.is_object()) return branch_of(nullptr, actor_id, fallback);
    const Request members(request);
    return branch_of(&members, actor_id, fallback);
}

void check_requested_currency(const JsonbArgument& request, const std::string& account_currency,
                              const std::string& account_number) {
    if (request.absent() || !request.is_object()) return;  // names no currency (the caller checks the request)
    rules::require(rules::requested_currency(requested_currency(Request(request)), account_number, account_currency));
}

Datum post(Operation operation, const JsonbArgument& request, const std::string& actor_id, bool customer_initiated) {
    require_object(request);
    const std::string transaction_id = post_operation(operation, Request(request), actor_id, customer_initiated);
    return posting::render_transaction(transaction_id);
}

}  // namespace corebank::pg::money
