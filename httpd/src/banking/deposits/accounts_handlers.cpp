// accounts_handlers.cpp: deposit products, accounts and their lifecycle,
// balance and statement as of a date, interest (accruals, posting, the daily
// run) and the dormancy job (docs/design/deposits.md). The state table and
// every money rule live in the database.
#include <cctype>

#include "api_error.hpp"
#include "banking/deposits/accounts_validation.hpp"
#include "banking/deposits/handlers.hpp"
#include "banking/deposits/products_validation.hpp"
#include "banking/deposits/statement_cursor.hpp"
#include "banking/deposits/statements.hpp"
#include "banking/fields.hpp"
#include "banking/handlers.hpp"
#include "banking/parameters.hpp"
#include "json_body.hpp"
#include "json_util.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

Param optional(const std::optional<std::string>& value) { return value ? Param(*value) : Param(); }

// Jobs record the staff person when a token is sent, else the system operator
// (the extension turns NULL into 00000000-0000-0000-0000-000000000000).
Param actor_or_system(const Caller& caller) { return optional(caller.actor_id); }

HttpResponse lifecycle(const Context& context, const HttpRequest& request, Db& db, const char* operation,
                       const Statement& statement, bool reason_required) {
    const Caller caller = authorize(context, request, db, operation);
    const std::string id = path_uuid(request, "id");
    const auto reason = parse_lifecycle_reason(request.body, reason_required);
    return pass_through(db.exec(statement, {id, reason.dump(), *caller.actor_id}).scalar());
}

}  // namespace

// ---------------------------------------------------------------- products

HttpResponse deposit_products_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "deposit_products.list");
    nlohmann::json filter = nlohmann::json::object();
    if (auto v = query_enum_ci(request, "accountType", account_types())) filter["accountType"] = *v;
    if (auto v = query_enum_ci(request, "currency", currencies())) filter["currency"] = *v;
    if (auto v = query_bool(request, "active")) filter["active"] = *v;
    return pass_through(db.exec(sql::deposit_products_list, {filter.dump()}).scalar());
}

// {id} is the product's UUID or its code (SAV-STD).
HttpResponse deposit_product_get(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "deposit_products.get");
    const std::string key = request.path_params.at("id");
    if (is_uuid_text(key)) return pass_through(db.exec(sql::deposit_products_get, {key}).scalar());
    bool code = !key.empty() && key.size() <= 20;
    for (char c : key) code = code && (std::isalnum(static_cast<unsigned char>(c)) || c == '-');
    if (!code) throw bad_request("id must be a UUID or a product code such as SAV-STD");
    return pass_through(db.exec(sql::deposit_products_get_by_code, {key}).scalar());
}

HttpResponse deposit_product_update(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "deposit_products.update", sql::deposit_products_update, parse_product_update);
}

// ---------------------------------------------------------------- accounts

HttpResponse accounts_open(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "accounts.open");
    const auto account = parse_account_open(request.body);
    return pass_through(db.exec(sql::accounts_open, {account.dump(), *caller.actor_id}).scalar());
}

HttpResponse accounts_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "accounts.list");
    nlohmann::json filter = nlohmann::json::object();
    if (auto v = query_uuid(request, "customerId")) filter["customerId"] = *v;
    if (auto v = query_enum_ci(request, "status", account_statuses())) filter["status"] = *v;
    if (auto v = query_enum_ci(request, "accountType", account_types())) filter["accountType"] = *v;
    if (auto v = query_text(request, "productCode", 20)) filter["productCode"] = *v;
    if (auto v = query_enum_ci(request, "currency", currencies())) filter["currency"] = *v;
    const PageRequest paging = query_page(request);
    filter["page"] = paging.page;
    filter["size"] = paging.size;
    return pass_through(db.exec(sql::accounts_list, {filter.dump()}).scalar());
}

HttpResponse account_get(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "accounts.get", sql::accounts_get);
}

HttpResponse account_activate(const Context& context, const HttpRequest& request, Db& db) {
    return lifecycle(context, request, db, "accounts.activate", sql::accounts_activate, false);
}

HttpResponse account_freeze(const Context& context, const HttpRequest& request, Db& db) {
    return lifecycle(context, request, db, "accounts.freeze", sql::accounts_freeze, true);
}

HttpResponse account_unfreeze(const Context& context, const HttpRequest& request, Db& db) {
    return lifecycle(context, request, db, "accounts.unfreeze", sql::accounts_unfreeze, false);
}

HttpResponse account_reactivate(const Context& context, const HttpRequest& request, Db& db) {
    return lifecycle(context, request, db, "accounts.reactivate", sql::accounts_reactivate, false);
}

HttpResponse account_close(const Context& context, const HttpRequest& request, Db& db) {
    return lifecycle(context, request, db, "accounts.close", sql::accounts_close, false);
}

HttpResponse account_status_history(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "accounts.status_history", sql::accounts_status_history);
}

HttpResponse account_balance(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "accounts.balance");
    const std::string id = path_uuid(request, "id");
    return pass_through(db.exec(sql::accounts_balance, {id, optional(query_date(request, "asOf"))}).scalar());
}

// One keyset page (docs/deposits.md, "Statement paging"): a cursor's page
// reads the range the first page resolved, from the position and running
// balance sealed in the cursor.
HttpResponse account_statement(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "accounts.statement");
    const std::string id = path_uuid(request, "id");
    const StatementPageRequest page = query_statement_page(request);
    const auto cursor = statement_cursor_for(context.statement_cursor_key, id, page);
    std::vector<Param> params{id, optional(page.period.from), optional(page.period.to), std::to_string(page.limit),
                              Param(), Param(), Param(), Param()};
    if (cursor) {
        params[1] = cursor->scope.first_day;
        params[2] = cursor->scope.last_day;
        params[4] = cursor->position.direction;
        params[5] = cursor->position.value_date;
        params[6] = std::to_string(cursor->position.entry_id);
        params[7] = std::to_string(cursor->position.balance_minor);
    }
    // The read replica when read_database_url is set (docs/scale-out.md); authorize stayed on the primary.
    auto result = parse_db_json(db.exec_read(sql::accounts_statement, params).scalar());
    HttpResponse response;
    response.status = 200;
    response.body = seal_page_cursors(context.statement_cursor_key, std::move(result), id, page.period).dump();
    return response;
}

// ---------------------------------------------------------------- interest and dormancy

HttpResponse account_interest_post(const Context& context, const HttpRequest& request, Db& db) {
    return act_on_id(context, request, db, "accounts.interest.post", sql::accounts_interest_post);
}

HttpResponse account_interest_accruals(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "accounts.interest.accruals");
    const std::string id = path_uuid(request, "id");
    const auto [from, to] = query_statement_period(request);
    return pass_through(db.exec(sql::interest_accruals_list, {id, optional(from), optional(to)}).scalar());
}

HttpResponse interest_run(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "interest.run");
    const std::string date = query_required_date(request, "date");
    expect_no_body(request.body);
    return pass_through(db.exec(sql::interest_run, {date, actor_or_system(caller)}).scalar());
}

HttpResponse dormancy_run(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "dormancy.run");
    const std::string date = query_required_date(request, "date");
    expect_no_body(request.body);
    return pass_through(db.exec(sql::dormancy_run, {date, actor_or_system(caller)}).scalar());
}

}  // namespace corebank::httpd::core_banking
