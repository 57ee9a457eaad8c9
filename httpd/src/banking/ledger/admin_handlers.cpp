// admin_handlers.cpp: platform configuration, numbering, the general ledger
// (accounts and budgets), branches and accounting periods.
#include "api_error.hpp"
#include "banking/fields.hpp"
#include "banking/handlers.hpp"
#include "banking/ledger/admin_validation.hpp"
#include "banking/ledger/handlers.hpp"
#include "banking/ledger/statements.hpp"
#include "json_body.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

std::string path_text(const HttpRequest& request, const std::string& name) { return request.path_params.at(name); }

std::string path_period(const HttpRequest& request) {
    const std::string period = path_text(request, "period");
    if (!is_year_month(period)) throw bad_request("period must be a month (YYYY-MM)");
    return period;
}

}  // namespace

HttpResponse platform_config_get(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "platform.config.get");
    return pass_through(db.exec(sql::platform_config_get, {}).scalar());
}

HttpResponse platform_config_update(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "platform.config.update");
    const auto change = parse_platform_config_update(request.body);
    return pass_through(db.exec(sql::platform_config_update, {change.dump(), *caller.actor_id}).scalar());
}

HttpResponse branch_scoping_get(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "branch_scoping.get");
    return pass_through(db.exec(sql::branch_scoping_get, {}).scalar());
}

// Parked (01-core-banking.md): returns the ParkedChangeResponse; nothing
// changes until a second person approves it.
HttpResponse branch_scoping_update(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "branch_scoping.update");
    const auto change = parse_branch_scoping_update(request.body);
    return pass_through(db.exec(sql::branch_scoping_update, {change.dump(), *caller.actor_id}).scalar());
}

HttpResponse numbering_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "numbering.list");
    return pass_through(db.exec(sql::numbering_list, {}).scalar());
}

HttpResponse numbering_update(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "numbering.update");
    const std::string entity = path_text(request, "entityType");
    if (entity != "LOAN" && entity != "ACCOUNT" && entity != "TRANSACTION" && entity != "APPLICATION")
        throw bad_request("entityType must be one of LOAN, ACCOUNT, TRANSACTION, APPLICATION");
    const auto change = parse_numbering_update(request.body);
    return pass_through(db.exec(sql::numbering_update, {entity, change.dump(), *caller.actor_id}).scalar());
}

HttpResponse gl_accounts_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "gl.accounts.list");
    nlohmann::json filter = nlohmann::json::object();
    if (auto v = query_enum(request, "currency", currencies())) filter["currency"] = *v;
    if (auto v = query_enum(request, "type", {"ASSET", "LIABILITY", "EQUITY", "INCOME", "EXPENSE"})) filter["type"] = *v;
    if (auto v = query_text(request, "code", 20)) filter["code"] = *v;
    return pass_through(db.exec(sql::gl_accounts_list, {filter.dump()}).scalar());
}

HttpResponse gl_account_get(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "gl.accounts.get", sql::gl_account_get);
}

HttpResponse gl_account_create(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "gl.accounts.create");
    const auto account = parse_gl_account_create(request.body);
    return pass_through(db.exec(sql::gl_account_create, {account.dump(), *caller.actor_id}).scalar(), 201);
}

HttpResponse gl_account_update(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "gl.accounts.update", sql::gl_account_update, parse_gl_account_update);
}

HttpResponse gl_budgets_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "gl.budgets.list");
    const auto period = query_text(request, "period", 7);
    if (!period) throw bad_request("period: is required (YYYY-MM)");
    if (!is_year_month(*period)) throw bad_request("period: must be a month (YYYY-MM)");
    return pass_through(db.exec(sql::gl_budgets_list, {*period}).scalar());
}

HttpResponse gl_budget_upsert(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "gl.budgets.upsert");
    const auto budget = parse_gl_budget_upsert(request.body);
    return pass_through(db.exec(sql::gl_budget_upsert, {budget.dump(), *caller.actor_id}).scalar());
}

HttpResponse branches_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "branches.list");
    return pass_through(db.exec(sql::branches_list, {}).scalar());
}

HttpResponse branch_get(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "branches.get", sql::branch_get);
}

HttpResponse branch_update(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "branches.update", sql::branch_update, parse_branch_update);
}

HttpResponse periods_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "periods.list");
    return pass_through(db.exec(sql::periods_list, {}).scalar());
}

HttpResponse period_close(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "periods.close");
    const std::string period = path_period(request);
    expect_no_body(request.body);
    return pass_through(db.exec(sql::period_close, {period, *caller.actor_id}).scalar());
}

HttpResponse period_reopen(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "periods.reopen");
    const std::string period = path_period(request);
    expect_no_body(request.body);
    return pass_through(db.exec(sql::period_reopen, {period, *caller.actor_id}).scalar());
}

}  // namespace corebank::httpd::core_banking
