// router.cpp: every route of the core-banking service in one place.
#include "banking/api_key_rotation.hpp"
#include "banking/deposits/handlers.hpp"
#include "banking/deposits/kyc_identity_handlers.hpp"
#include "banking/handlers.hpp"
#include "banking/ledger/handlers.hpp"
#include "banking/operations/handlers.hpp"
#include "banking/staff/handlers.hpp"
#include "banking/staff/identities_handlers.hpp"
#include "banking/platform_info.hpp"
#include "banking/statements.hpp"
#include "console/console.hpp"

namespace corebank::httpd::core_banking {

namespace {

Route worker(const char* method, const char* pattern, Handler handler, std::shared_ptr<const Context> context) {
    return worker_route(method, pattern, handler, std::move(context));
}

Route document(const char* pattern, const nlohmann::json& (*content)()) {
    return Route{"GET", pattern, RunOn::reactor,
                 [content](const HttpRequest&, Db*) { return json_response(200, content()); }};
}

// A document built once, when the router is (from the configuration).
Route document(const char* pattern, nlohmann::json content) {
    return Route{"GET", pattern, RunOn::reactor,
                 [content = std::move(content)](const HttpRequest&, Db*) { return json_response(200, content); }};
}

// Issue 4: customers, CIF, KYC, products, accounts, money, exchange rates,
// passbooks, standing orders (docs/design/deposits.md).
void add_deposit_routes(Router& r, const std::shared_ptr<const Context>& c) {
    // customers and the CIF
    r.add(worker("POST", "/v1/customers", customers_create, c));
    r.add(worker("GET", "/v1/customers", customers_list, c));
    r.add(worker("GET", "/v1/customers/:id", customer_get, c));
    r.add(worker("PUT", "/v1/customers/:id/signing-mandate", customer_signing_mandate_update, c));
    r.add(worker("GET", "/v1/customers/:id/profile", customer_profile_get, c));
    r.add(worker("PATCH", "/v1/customers/:id/profile", customer_profile_update, c));
    r.add(worker("GET", "/v1/customers/:id/interactions", customer_interactions_list, c));
    r.add(worker("POST", "/v1/customers/:id/interactions", customer_interaction_create, c));
    r.add(worker("GET", "/v1/customers/:id/cases", customer_cases_list, c));
    r.add(worker("POST", "/v1/customers/:id/cases", customer_case_open, c));
    r.add(worker("PUT", "/v1/customers/:id/cases/:caseId/resolve", customer_case_resolve, c));
    r.add(worker("GET", "/v1/customers/:id/beneficial-owners", customer_beneficial_owners_list, c));
    r.add(worker("POST", "/v1/customers/:id/beneficial-owners", customer_beneficial_owner_add, c));
    r.add(worker("DELETE", "/v1/customers/:id/beneficial-owners/:ownerId", customer_beneficial_owner_remove, c));
    r.add(worker("GET", "/v1/customers/:id/beneficiaries", customer_beneficiaries_list, c));
    r.add(worker("POST", "/v1/customers/:id/beneficiaries", customer_beneficiary_add, c));
    r.add(worker("DELETE", "/v1/customers/:id/beneficiaries/:beneficiaryId", customer_beneficiary_remove, c));
    r.add(worker("GET", "/v1/customers/:id/profitability", customer_profitability, c));
    // KYC
    r.add(worker("GET", "/v1/customers/:id/kyc", customer_kyc_get, c));
    r.add(worker("PUT", "/v1/customers/:id/kyc/risk-category", customer_kyc_risk_update, c));
    r.add(worker("POST", "/v1/customers/:id/kyc/reviews", customer_kyc_review_record, c));
    r.add(worker("POST", "/v1/customers/:id/kyc/documents", customer_kyc_document_add, c));
    r.add(worker("POST", "/v1/customers/:id/kyc/checks", customer_kyc_checks_run, c));
    r.add(worker("GET", "/v1/kyc/reviews/due", kyc_reviews_due, c));
    r.add(worker("POST", "/v1/kyc/documents/:id/verify", kyc_document_verify, c));
    // KYC tiers of identity users (issue 14): both parked.
    r.add(worker("PUT", "/v1/customers/:id/identity-user", customer_identity_user_link, c));
    r.add(worker("POST", "/v1/identity-users/:id/kyc-tier", identity_user_kyc_tier_request, c));
    // deposit products and accounts
    r.add(worker("GET", "/v1/deposit-products", deposit_products_list, c));
    r.add(worker("GET", "/v1/deposit-products/:id", deposit_product_get, c));
    r.add(worker("PUT", "/v1/deposit-products/:id", deposit_product_update, c));
    r.add(worker("POST", "/v1/accounts", accounts_open, c));
    r.add(worker("GET", "/v1/accounts", accounts_list, c));
    r.add(worker("GET", "/v1/accounts/:id", account_get, c));
    r.add(worker("PUT", "/v1/accounts/:id/activate", account_activate, c));
    r.add(worker("PUT", "/v1/accounts/:id/freeze", account_freeze, c));
    r.add(worker("PUT", "/v1/accounts/:id/unfreeze", account_unfreeze, c));
    r.add(worker("PUT", "/v1/accounts/:id/reactivate", account_reactivate, c));
    r.add(worker("PUT", "/v1/accounts/:id/close", account_close, c));
    r.add(worker("GET", "/v1/accounts/:id/status-history", account_status_history, c));
    r.add(worker("GET", "/v1/accounts/:id/balance", account_balance, c));
    r.add(worker("GET", "/v1/accounts/:id/statement", account_statement, c));
    r.add(worker("POST", "/v1/accounts/:id/interest/post", account_interest_post, c));
    r.add(worker("GET", "/v1/accounts/:id/interest/accruals", account_interest_accruals, c));
    r.add(worker("POST", "/v1/interest/run", interest_run, c));
    r.add(worker("POST", "/v1/dormancy/run", dormancy_run, c));
    // the end-of-day runner (issue 13, docs/operations.md)
    r.add(worker("GET", "/v1/jobs", jobs_list, c));
    r.add(worker("POST", "/v1/jobs/run", jobs_run, c));
    r.add(worker("GET", "/v1/jobs/:id", job_get, c));
    // money and exchange rates
    r.add(worker("POST", "/v1/deposits", money_deposit, c));
    r.add(worker("POST", "/v1/withdrawals", money_withdraw, c));
    r.add(worker("POST", "/v1/transfers", money_transfer, c));
    Route batch = worker("POST", "/v1/transfers/batch", money_transfer_batch, c);
    batch.max_body_bytes = c->config.batch_max_body_bytes;
    r.add(std::move(batch));
    r.add(worker("POST", "/v1/fees", money_fee, c));
    r.add(worker("GET", "/v1/exchange-rates", exchange_rates_list, c));
    r.add(worker("POST", "/v1/exchange-rates", exchange_rate_set, c));
    r.add(worker("GET", "/v1/exchange-rates/:from/:to", exchange_rate_get, c));
    // passbooks
    r.add(worker("POST", "/v1/accounts/:id/passbooks", passbook_issue, c));
    r.add(worker("GET", "/v1/accounts/:id/passbooks", passbooks_list, c));
    r.add(worker("GET", "/v1/passbooks/:id", passbook_get, c));
    r.add(worker("POST", "/v1/passbooks/:id/reprint", passbook_reprint, c));
    r.add(worker("GET", "/v1/passbooks/:id/unprinted-lines", passbook_unprinted, c));
    r.add(worker("POST", "/v1/passbooks/:id/print-confirm", passbook_print_confirm, c));
    // standing orders (01-core-banking.md, Endpoints)
    r.add(worker("GET", "/v1/standing-orders", standing_orders_list, c));
    r.add(worker("POST", "/v1/standing-orders", standing_orders_create, c));
    r.add(worker("POST", "/v1/standing-orders/execute", standing_orders_execute, c));
    r.add(worker("GET", "/v1/standing-orders/:id", standing_order_get, c));
    r.add(worker("PUT", "/v1/standing-orders/:id/pause", standing_order_pause, c));
    r.add(worker("PUT", "/v1/standing-orders/:id/resume", standing_order_resume, c));
    r.add(worker("PUT", "/v1/standing-orders/:id/cancel", standing_order_cancel, c));
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
    r.add(document("/v1/platform", platform_overview(c->config)));
    r.add(document("/v1/platform/compliance", platform_compliance(c->config)));
    r.add(document("/v1/platform/architecture", platform_architecture));
    r.add(document("/v1/platform/faq", platform_faq));
    r.add(worker("GET", "/v1/platform/banks", platform_banks, c));
    r.add(openapi_route(c));
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
    r.add(worker("PUT", "/v1/api-keys/:id", api_key_update, c));
    r.add(worker("POST", "/v1/api-keys/:id/rotate", api_key_rotate, c));
    // staff roles and permissions
    r.add(worker("GET", "/v1/staff/permissions", staff_permissions_list, c));
    r.add(worker("GET", "/v1/staff/roles", staff_roles_list, c));
    r.add(worker("POST", "/v1/staff/roles", staff_role_create, c));
    r.add(worker("PUT", "/v1/staff/roles/:roleKey", staff_role_update, c));
    // staff identities and their branch
    r.add(worker("GET", "/v1/staff/identities", staff_identities_list, c));
    r.add(worker("POST", "/v1/staff/identities", staff_identity_create, c));
    r.add(worker("PUT", "/v1/staff/identities/:username", staff_identity_update, c));
    r.add(worker("GET", "/v1/staff/identities/:id/branch", staff_branch_get, c));
    r.add(worker("PUT", "/v1/staff/identities/:id/branch", staff_branch_update, c));
    add_deposit_routes(r, c);
    // the approvals console (issue 15): its page and the approvals through the console's key
    console::add_routes(r, c);
    return r;
}

}  // namespace corebank::httpd::core_banking
