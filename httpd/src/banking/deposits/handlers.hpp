// deposits/handlers.hpp: the deposits handlers: customers and the CIF, KYC,
// products and accounts, money movements and exchange rates, passbooks,
// standing orders (docs/design/deposits.md). Routes: banking/router.cpp.
#pragma once

#include "banking/context.hpp"

namespace corebank::httpd::core_banking {

// customers_handlers.cpp: customers, CIF, beneficial owners, beneficiaries, KYC (issue 4)
HttpResponse customers_create(const Context&, const HttpRequest&, Db&);
HttpResponse customers_list(const Context&, const HttpRequest&, Db&);
HttpResponse customer_get(const Context&, const HttpRequest&, Db&);
HttpResponse customer_signing_mandate_update(const Context&, const HttpRequest&, Db&);
HttpResponse customer_profile_get(const Context&, const HttpRequest&, Db&);
HttpResponse customer_profile_update(const Context&, const HttpRequest&, Db&);
HttpResponse customer_interactions_list(const Context&, const HttpRequest&, Db&);
HttpResponse customer_interaction_create(const Context&, const HttpRequest&, Db&);
HttpResponse customer_cases_list(const Context&, const HttpRequest&, Db&);
HttpResponse customer_case_open(const Context&, const HttpRequest&, Db&);
HttpResponse customer_case_resolve(const Context&, const HttpRequest&, Db&);
HttpResponse customer_beneficial_owners_list(const Context&, const HttpRequest&, Db&);
HttpResponse customer_beneficial_owner_add(const Context&, const HttpRequest&, Db&);
HttpResponse customer_beneficial_owner_remove(const Context&, const HttpRequest&, Db&);
HttpResponse customer_beneficiaries_list(const Context&, const HttpRequest&, Db&);
HttpResponse customer_beneficiary_add(const Context&, const HttpRequest&, Db&);
HttpResponse customer_beneficiary_remove(const Context&, const HttpRequest&, Db&);
HttpResponse customer_profitability(const Context&, const HttpRequest&, Db&);
HttpResponse customer_kyc_get(const Context&, const HttpRequest&, Db&);
HttpResponse customer_kyc_risk_update(const Context&, const HttpRequest&, Db&);
HttpResponse customer_kyc_review_record(const Context&, const HttpRequest&, Db&);
HttpResponse kyc_reviews_due(const Context&, const HttpRequest&, Db&);
HttpResponse customer_kyc_document_add(const Context&, const HttpRequest&, Db&);
HttpResponse kyc_document_verify(const Context&, const HttpRequest&, Db&);
HttpResponse customer_kyc_checks_run(const Context&, const HttpRequest&, Db&);

// accounts_handlers.cpp: deposit products, accounts, lifecycle, balance, statement, interest, dormancy (issue 4)
HttpResponse deposit_products_list(const Context&, const HttpRequest&, Db&);
HttpResponse deposit_product_get(const Context&, const HttpRequest&, Db&);
HttpResponse deposit_product_update(const Context&, const HttpRequest&, Db&);
HttpResponse accounts_open(const Context&, const HttpRequest&, Db&);
HttpResponse accounts_list(const Context&, const HttpRequest&, Db&);
HttpResponse account_get(const Context&, const HttpRequest&, Db&);
HttpResponse account_activate(const Context&, const HttpRequest&, Db&);
HttpResponse account_freeze(const Context&, const HttpRequest&, Db&);
HttpResponse account_unfreeze(const Context&, const HttpRequest&, Db&);
HttpResponse account_reactivate(const Context&, const HttpRequest&, Db&);
HttpResponse account_close(const Context&, const HttpRequest&, Db&);
HttpResponse account_status_history(const Context&, const HttpRequest&, Db&);
HttpResponse account_balance(const Context&, const HttpRequest&, Db&);
HttpResponse account_statement(const Context&, const HttpRequest&, Db&);
HttpResponse account_interest_post(const Context&, const HttpRequest&, Db&);
HttpResponse account_interest_accruals(const Context&, const HttpRequest&, Db&);
HttpResponse interest_run(const Context&, const HttpRequest&, Db&);
HttpResponse dormancy_run(const Context&, const HttpRequest&, Db&);

// money_handlers.cpp: deposits, withdrawals, transfers, fees, exchange rates (issue 4)
HttpResponse money_deposit(const Context&, const HttpRequest&, Db&);
HttpResponse money_withdraw(const Context&, const HttpRequest&, Db&);
HttpResponse money_transfer(const Context&, const HttpRequest&, Db&);
HttpResponse money_transfer_batch(const Context&, const HttpRequest&, Db&);
HttpResponse money_fee(const Context&, const HttpRequest&, Db&);
HttpResponse exchange_rates_list(const Context&, const HttpRequest&, Db&);
HttpResponse exchange_rate_get(const Context&, const HttpRequest&, Db&);
HttpResponse exchange_rate_set(const Context&, const HttpRequest&, Db&);

// passbooks_handlers.cpp (issue 4)
HttpResponse passbook_issue(const Context&, const HttpRequest&, Db&);
HttpResponse passbooks_list(const Context&, const HttpRequest&, Db&);
HttpResponse passbook_get(const Context&, const HttpRequest&, Db&);
HttpResponse passbook_reprint(const Context&, const HttpRequest&, Db&);
HttpResponse passbook_unprinted(const Context&, const HttpRequest&, Db&);
HttpResponse passbook_print_confirm(const Context&, const HttpRequest&, Db&);

// standing_orders_handlers.cpp (issue 4)
HttpResponse standing_orders_list(const Context&, const HttpRequest&, Db&);
HttpResponse standing_orders_create(const Context&, const HttpRequest&, Db&);
HttpResponse standing_order_get(const Context&, const HttpRequest&, Db&);
HttpResponse standing_order_pause(const Context&, const HttpRequest&, Db&);
HttpResponse standing_order_resume(const Context&, const HttpRequest&, Db&);
HttpResponse standing_order_cancel(const Context&, const HttpRequest&, Db&);
HttpResponse standing_orders_execute(const Context&, const HttpRequest&, Db&);

}  // namespace corebank::httpd::core_banking
