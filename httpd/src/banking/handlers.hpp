// handlers.hpp: the core-banking service's handlers. Each one: authorize
// (key, scope, staff person), validate, one call to one extension function,
// and the database's JSON goes back as it is.
#pragma once

#include "banking/context.hpp"

namespace corebank::httpd::core_banking {

using Handler = HttpResponse (*)(const Context&, const HttpRequest&, Db&);

// transactions_handlers.cpp
HttpResponse transactions_search(const Context&, const HttpRequest&, Db&);
HttpResponse transactions_capture(const Context&, const HttpRequest&, Db&);
HttpResponse transaction_get(const Context&, const HttpRequest&, Db&);
HttpResponse transaction_post(const Context&, const HttpRequest&, Db&);
HttpResponse transaction_abandon(const Context&, const HttpRequest&, Db&);
HttpResponse transaction_reverse(const Context&, const HttpRequest&, Db&);

// approvals_handlers.cpp
HttpResponse approvals_list(const Context&, const HttpRequest&, Db&);
HttpResponse approval_get(const Context&, const HttpRequest&, Db&);
HttpResponse approval_approve(const Context&, const HttpRequest&, Db&);
HttpResponse approval_reject(const Context&, const HttpRequest&, Db&);

// admin_handlers.cpp: platform config, numbering, GL, budgets, branches, periods
HttpResponse platform_config_get(const Context&, const HttpRequest&, Db&);
HttpResponse platform_config_update(const Context&, const HttpRequest&, Db&);
HttpResponse branch_scoping_get(const Context&, const HttpRequest&, Db&);
HttpResponse branch_scoping_update(const Context&, const HttpRequest&, Db&);
HttpResponse numbering_list(const Context&, const HttpRequest&, Db&);
HttpResponse numbering_update(const Context&, const HttpRequest&, Db&);
HttpResponse gl_accounts_list(const Context&, const HttpRequest&, Db&);
HttpResponse gl_account_get(const Context&, const HttpRequest&, Db&);
HttpResponse gl_account_create(const Context&, const HttpRequest&, Db&);
HttpResponse gl_account_update(const Context&, const HttpRequest&, Db&);
HttpResponse gl_budgets_list(const Context&, const HttpRequest&, Db&);
HttpResponse gl_budget_upsert(const Context&, const HttpRequest&, Db&);
HttpResponse branches_list(const Context&, const HttpRequest&, Db&);
HttpResponse branch_get(const Context&, const HttpRequest&, Db&);
HttpResponse branch_update(const Context&, const HttpRequest&, Db&);
HttpResponse periods_list(const Context&, const HttpRequest&, Db&);
HttpResponse period_close(const Context&, const HttpRequest&, Db&);
HttpResponse period_reopen(const Context&, const HttpRequest&, Db&);

// api_key_handlers.cpp
HttpResponse api_keys_list(const Context&, const HttpRequest&, Db&);
HttpResponse api_key_create(const Context&, const HttpRequest&, Db&);
HttpResponse api_key_revoke(const Context&, const HttpRequest&, Db&);

// public_handlers.cpp
HttpResponse health(const Context&, const HttpRequest&, Db&);

// The database's JSON text, sent as it is.
HttpResponse pass_through(const std::optional<std::string>& json_text, int status = 200);

// A new API key "cb_<service>_<random>" and the prefix shown in listings.
struct NewApiKey {
    std::string key;
    std::string prefix;
};
NewApiKey generate_api_key(const std::string& service);

}  // namespace corebank::httpd::core_banking
