// router.cpp: every route of the core-banking service in one place.
#include "banking/handlers.hpp"
#include "banking/platform_info.hpp"
#include "banking/statements.hpp"

namespace corebank::httpd::core_banking {

namespace {

Route worker(const char* method, const char* pattern, Handler handler, std::shared_ptr<const Context> context) {
    return worker_route(method, pattern, handler, std::move(context));
}

Route document(const char* pattern, const nlohmann::json& (*content)()) {
    return Route{"GET", pattern, RunOn::reactor,
                 [content](const HttpRequest&, Db*) { return json_response(200, content()); }};
}

}  // namespace

HttpResponse health(const Context&, const HttpRequest&, Db& db) {
    try {
        db.exec(sql::ping, {});
        return json_response(200, nlohmann::json{{"status", "UP"}, {"components", {{"db", {{"status", "UP"}}}}}});
    } catch (const DbUnavailable&) {
        return json_response(503, nlohmann::json{{"status", "DOWN"}, {"components", {{"db", {{"status", "DOWN"}}}}}});
    }
}

Router make_router(std::shared_ptr<const Context> c) {
    Router r;
    // public
    r.add(worker("GET", "/actuator/health", health, c));
    r.add(document("/v1/platform", platform_overview));
    r.add(document("/v1/platform/compliance", platform_compliance));
    r.add(document("/v1/platform/architecture", platform_architecture));
    r.add(document("/v1/platform/faq", platform_faq));
    r.add(document("/v1/platform/banks", platform_banks));
    r.add(Route{"GET", "/openapi.json", RunOn::reactor, [c](const HttpRequest&, Db*) {
                    HttpResponse response;
                    response.body = c->openapi_document;
                    return response;
                }});
    // transactions
    r.add(worker("GET", "/v1/transactions", transactions_search, c));
    r.add(worker("POST", "/v1/transactions", transactions_capture, c));
    r.add(worker("GET", "/v1/transactions/:id", transaction_get, c));
    r.add(worker("POST", "/v1/transactions/:id/post", transaction_post, c));
    r.add(worker("POST", "/v1/transactions/:id/abandon", transaction_abandon, c));
    r.add(worker("POST", "/v1/transactions/:id/reverse", transaction_reverse, c));
    // maker-checker
    r.add(worker("GET", "/v1/approvals", approvals_list, c));
    r.add(worker("GET", "/v1/approvals/:id", approval_get, c));
    r.add(worker("POST", "/v1/approvals/:id/approve", approval_approve, c));
    r.add(worker("POST", "/v1/approvals/:id/reject", approval_reject, c));
    // platform configuration
    r.add(worker("GET", "/v1/platform/config", platform_config_get, c));
    r.add(worker("PUT", "/v1/platform/config", platform_config_update, c));
    r.add(worker("GET", "/v1/platform/branch-scoping", branch_scoping_get, c));
    r.add(worker("PUT", "/v1/platform/branch-scoping", branch_scoping_update, c));
    r.add(worker("GET", "/v1/platform/numbering", numbering_list, c));
    r.add(worker("PUT", "/v1/platform/numbering/:entityType", numbering_update, c));
    // general ledger
    r.add(worker("GET", "/v1/gl/accounts", gl_accounts_list, c));
    r.add(worker("POST", "/v1/gl/accounts", gl_account_create, c));
    r.add(worker("GET", "/v1/gl/accounts/:id", gl_account_get, c));
    r.add(worker("PUT", "/v1/gl/accounts/:id", gl_account_update, c));
    r.add(worker("GET", "/v1/gl/budgets", gl_budgets_list, c));
    r.add(worker("PUT", "/v1/gl/budgets", gl_budget_upsert, c));
    // branches and periods
    r.add(worker("GET", "/v1/branches", branches_list, c));
    r.add(worker("GET", "/v1/branches/:id", branch_get, c));
    r.add(worker("PUT", "/v1/branches/:id", branch_update, c));
    r.add(worker("GET", "/v1/periods", periods_list, c));
    r.add(worker("POST", "/v1/periods/:period/close", period_close, c));
    r.add(worker("POST", "/v1/periods/:period/reopen", period_reopen, c));
    // API keys
    r.add(worker("GET", "/v1/api-keys", api_keys_list, c));
    r.add(worker("POST", "/v1/api-keys", api_key_create, c));
    r.add(worker("DELETE", "/v1/api-keys/:id", api_key_revoke, c));
    return r;
}

}  // namespace corebank::httpd::core_banking
