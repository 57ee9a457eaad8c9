// deposits_posting.cpp: see deposits_posting.hpp.
// nlohmann first: PostgreSQL's port.h redefines snprintf, which it uses.
#include <nlohmann/json.hpp>

#include "pg/deposits_posting.hpp"

#include <map>
#include <vector>

#include "core/posting_rules.hpp"
#include "pg/check.hpp"
#include "pg/ledger_common.hpp"
#include "pg/ledger_posting.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::deposits {

namespace {

using core::sqlstate_validation;
using ledger::fail;
using nlohmann::json;

constexpr std::size_t rule_accounts_max = 256;

/*---- statements ----*/

constexpr const char deposit_rows_sql[] =
    "SELECT d.id::text, p.minimum_balance_minor FROM corebank.deposit_accounts d "
    "JOIN corebank.deposit_products p ON p.id = d.product_id WHERE d.id = ANY ($1::uuid[])";

// Only while still DORMANT once the row is held: another posting may have
// reactivated it since this one read it (both held it FOR KEY SHARE).
constexpr const char reactivate_sql[] =
    "SELECT corebank_internal.account_status_set(a.id, 'ACTIVE', 'reactivated by a customer-initiated posting', "
    "$2::uuid) "
    "FROM (SELECT x.id FROM corebank.ledger_accounts x WHERE x.id = $1::uuid AND x.status = 'DORMANT' "
    "      FOR NO KEY UPDATE) a";

// Only a stamp that moves is written: an account its owner used today
// already carries today's date, and rewriting the row would cost every
// posting a row version (and a wait on the row for the owner's next one).
constexpr const char activity_sql[] =
    "UPDATE corebank.deposit_accounts d "
    "SET last_customer_activity_on = corebank_internal.business_today(), updated_at = now() "
    "WHERE d.id = ANY ($1::uuid[]) "
    "  AND (d.last_customer_activity_on IS NULL OR d.last_customer_activity_on < corebank_internal.business_today())";

/*---- helpers ----*/

std::set<std::string> id_list(const json& root, const char* name) {
    std::set<std::string> ids;
    const auto found = root.find(name);
    if (found == root.end() || found->is_null()) return ids;
    if (!found->is_array() || found->size() > rule_accounts_max) {
        fail(sqlstate_validation, std::string("rules.") + name + ": must be an array of account ids");
    }
    for (const json& item : *found) {
        const std::optional<std::string> id =
            item.is_string() ? core::ledger::canonical_uuid(item.get<std::string>()) : std::nullopt;
        if (!id) fail(sqlstate_validation, std::string("rules.") + name + ": must be an array of account ids");
        ids.insert(*id);
    }
    return ids;
}

// Product minimum balance per deposit account (bare ledger accounts absent).
std::map<std::string, std::int64_t> deposit_minimums(const posting::Accounts& accounts) {
    std::vector<std::string> ids;
    for (const auto& entry : accounts) ids.push_back(entry.first);
    std::map<std::string, std::int64_t> minimums;
    if (ids.empty()) return minimums;
    const std::uint64_t rows = spi::execute_generic(deposit_rows_sql, {spi::Arg::uuid_column(ids)});
    for (std::uint64_t row = 0; row < rows; ++row) {
        minimums[spi::get_text(row, 1).value()] = spi::get_int(row, 2).value();
    }
    return minimums;
}

}  // namespace

void reactivate_account(const std::string& account_id, const std::string& actor_id) {
    spi::execute(reactivate_sql, {spi::Arg::text(account_id), spi::Arg::text(actor_id)});
}

void record_customer_activity(const std::vector<std::string>& account_ids) {
    if (account_ids.empty()) return;
    // A column: a batch of transfers names up to 16,000 accounts.
    spi::execute_generic(activity_sql, {spi::Arg::uuid_column(account_ids)});
}

Rules parse_rules(const std::string& json_text) {
    const json root = json::parse(json_text, nullptr, false);
    if (root.is_discarded() || !root.is_object()) fail(sqlstate_validation, "rules: must be a JSON object");
    Rules rules;
    rules.customer = id_list(root, "customer");
    rules.minimum_balance = id_list(root, "minimumBalance");
    return rules;
}

std::string post(const core::ledger::Request& request, const Rules& rules) {
    const posting::Header header = posting::header_from_request(request);
    std::vector<posting::Line> lines = posting::lines_from_request(request.lines);

    posting::Accounts accounts = posting::load_accounts(lines, true);
    const std::map<std::string, std::int64_t> minimums = deposit_minimums(accounts);
    const std::map<std::string, std::int64_t> deltas = posting::account_deltas(lines);
    std::vector<std::string> active_customer_accounts;
    for (auto& [account_id, account] : accounts) {
        const auto delta = deltas.find(account_id);
        CB_CHECK(delta != deltas.end());
        const auto minimum = minimums.find(account_id);
        const std::optional<std::int64_t> product_minimum =
            minimum == minimums.end() ? std::nullopt : std::optional<std::int64_t>(minimum->second);
        const core::posting_rules::DepositOutcome outcome = core::posting_rules::deposit_account(
            posting::account_facts(account), delta->second, product_minimum, rules.customer.count(account_id) > 0,
            rules.minimum_balance.count(account_id) > 0);
        core::posting_rules::require(outcome.decision);
        if (outcome.reactivate) reactivate_account(account_id, header.operator_id);
        // The state table allowed this posting: the engine's ACTIVE check is
        // the ledger's default, which the rules above replace.
        account.status = "ACTIVE";
        if (product_minimum && rules.customer.count(account_id) > 0) active_customer_accounts.push_back(account_id);
    }
    posting::bind_accounts(lines, accounts);
    posting::post(header, lines, accounts, posting::GlRule::any);
    record_customer_activity(active_customer_accounts);
    return header.id;
}

std::string post_json(const std::string& request_text, const Rules& rules) {
    const core::ledger::Request request = core::ledger::parse_request(request_text, core::ledger::Dialect::ledger_post);
    if (const std::optional<std::string> currency = core::ledger::unbalanced_currency(request.lines)) {
        fail(core::sqlstate_unprocessable, "transaction is not balanced in " + *currency);
    }
    return post(request, rules);
}

}  // namespace corebank::pg::deposits
