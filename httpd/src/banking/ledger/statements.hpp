// ledger/statements.hpp: the SQL of the ledger's endpoints (transactions,
// approvals, platform config, numbering, GL accounts and budgets, branches,
// periods): one extension function per operation (docs/design/ledger.md);
// jsonb comes back as text and goes to the client as it is.
#pragma once

#include "db.hpp"

namespace corebank::httpd::core_banking::sql {

inline const Statement transaction_capture{
    "core_transaction_capture", "SELECT corebank.core_transaction_capture($1::jsonb, $2::uuid)::text", 2};
inline const Statement transaction_post{"core_transaction_post",
                                        "SELECT corebank.core_transaction_post($1::uuid, $2::uuid)::text", 2};
inline const Statement transaction_abandon{"core_transaction_abandon",
                                           "SELECT corebank.core_transaction_abandon($1::uuid, $2::uuid)::text", 2};
inline const Statement transaction_reverse{
    "core_transaction_reverse_request",
    "SELECT corebank.core_transaction_reverse_request($1::uuid, $2, $3::uuid)::text", 3};
inline const Statement transaction_get{"core_transaction_get", "SELECT corebank.core_transaction_get($1::uuid)::text", 1};
inline const Statement transaction_search{"core_transaction_search",
                                          "SELECT corebank.core_transaction_search($1::jsonb)::text", 1};

inline const Statement approvals_list{"core_approvals_list",
                                      "SELECT corebank.core_approvals_list($1, $2::int, $3::int)::text", 3};
inline const Statement approval_get{"core_approval_get", "SELECT corebank.core_approval_get($1::uuid)::text", 1};
inline const Statement approval_approve{"core_approval_approve",
                                        "SELECT corebank.core_approval_approve($1::uuid, $2::uuid, $3)::text", 3};
inline const Statement approval_reject{"core_approval_reject",
                                       "SELECT corebank.core_approval_reject($1::uuid, $2::uuid, $3)::text", 3};

inline const Statement platform_config_get{"core_platform_config_get",
                                           "SELECT corebank.core_platform_config_get()::text", 0};
inline const Statement platform_config_update{
    "core_platform_config_update", "SELECT corebank.core_platform_config_update($1::jsonb, $2::uuid)::text", 2};
inline const Statement branch_scoping_get{"core_branch_scoping_get",
                                          "SELECT corebank.core_branch_scoping_get()::text", 0};
inline const Statement branch_scoping_update{
    "core_branch_scoping_update_request",
    "SELECT corebank.core_branch_scoping_update_request($1::jsonb, $2::uuid)::text", 2};
inline const Statement numbering_list{"core_numbering_list", "SELECT corebank.core_numbering_list()::text", 0};
inline const Statement numbering_update{
    "core_numbering_update", "SELECT corebank.core_numbering_update($1, $2::jsonb, $3::uuid)::text", 3};

inline const Statement gl_accounts_list{"core_gl_accounts_list",
                                        "SELECT corebank.core_gl_accounts_list($1::jsonb)::text", 1};
inline const Statement gl_account_get{"core_gl_account_get", "SELECT corebank.core_gl_account_get($1::uuid)::text", 1};
inline const Statement gl_account_create{"core_gl_account_create",
                                         "SELECT corebank.core_gl_account_create($1::jsonb, $2::uuid)::text", 2};
inline const Statement gl_account_update{
    "core_gl_account_update", "SELECT corebank.core_gl_account_update($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement gl_budgets_list{"core_gl_budgets_list", "SELECT corebank.core_gl_budgets_list($1)::text", 1};
inline const Statement gl_budget_upsert{"core_gl_budget_upsert",
                                        "SELECT corebank.core_gl_budget_upsert($1::jsonb, $2::uuid)::text", 2};

inline const Statement branches_list{"core_branches_list", "SELECT corebank.core_branches_list()::text", 0};
inline const Statement branch_get{"core_branch_get", "SELECT corebank.core_branch_get($1::uuid)::text", 1};
inline const Statement branch_update{"core_branch_update",
                                     "SELECT corebank.core_branch_update($1::uuid, $2::jsonb, $3::uuid)::text", 3};

inline const Statement periods_list{"core_periods_list", "SELECT corebank.core_periods_list()::text", 0};
inline const Statement period_close{"core_period_close_request",
                                    "SELECT corebank.core_period_close_request($1, $2::uuid)::text", 2};
inline const Statement period_reopen{"core_period_reopen_request",
                                     "SELECT corebank.core_period_reopen_request($1, $2::uuid)::text", 2};

}  // namespace corebank::httpd::core_banking::sql
