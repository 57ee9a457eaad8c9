// ledger/handlers.hpp: the ledger's handlers: manual journals, approvals,
// and the ledger's administration (platform config, numbering, GL accounts
// and budgets, branches, periods). Routes: banking/router.cpp.
#pragma once

#include "banking/context.hpp"

namespace corebank::httpd::core_banking {

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

}  // namespace corebank::httpd::core_banking
