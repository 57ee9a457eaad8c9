// fuzz_banking_validation: the core banking request bodies, the manual
// journal first (httpd/src/banking/*_validation.hpp, ledger/, deposits/).
// The documented failure is ApiError; anything else escaping is a bug.
#include <optional>
#include <string>

#include "api_error.hpp"
#include "banking/api_key_validation.hpp"
#include "banking/deposits/accounts_validation.hpp"
#include "banking/deposits/customer_profile_validation.hpp"
#include "banking/deposits/customers_validation.hpp"
#include "banking/deposits/kyc_validation.hpp"
#include "banking/deposits/money_validation.hpp"
#include "banking/deposits/passbooks_validation.hpp"
#include "banking/deposits/products_validation.hpp"
#include "banking/deposits/standing_orders_validation.hpp"
#include "banking/ledger/admin_validation.hpp"
#include "banking/ledger/approvals_validation.hpp"
#include "banking/ledger/transactions_validation.hpp"
#include "banking/parameters.hpp"
#include "fuzz_common.hpp"
#include "query_params.hpp"

using namespace corebank::httpd;
using namespace corebank::httpd::core_banking;

namespace {

void run(unsigned selector, const std::string& body) {
    switch (selector % 37) {
    case 0: (void)parse_manual_journal(body); break;
    case 1: (void)parse_platform_config_update(body); break;
    case 2: (void)parse_branch_scoping_update(body); break;
    case 3: (void)parse_numbering_update(body); break;
    case 4: (void)parse_gl_account_create(body); break;
    case 5: (void)parse_gl_account_update(body); break;
    case 6: (void)parse_gl_budget_upsert(body); break;
    case 7: (void)parse_branch_update(body); break;
    case 8: (void)parse_api_key_create(body); break;
    case 9: (void)parse_approval_comment(body); break;
    case 10: (void)parse_rejection_reason(body); break;
    case 11: (void)parse_customer_create(body); break;
    case 12: (void)parse_signing_mandate(body); break;
    case 13: (void)parse_profile_patch(body); break;
    case 14: (void)parse_interaction_create(body); break;
    case 15: (void)parse_case_open(body); break;
    case 16: (void)parse_case_resolve(body); break;
    case 17: (void)parse_beneficial_owner_add(body); break;
    case 18: (void)parse_beneficiary_add(body); break;
    case 19: (void)parse_kyc_risk(body); break;
    case 20: (void)parse_kyc_review(body); break;
    case 21: (void)parse_kyc_document_add(body); break;
    case 22: (void)parse_kyc_document_verify(body); break;
    case 23: (void)parse_kyc_checks(body, "SIMULATED"); break;
    case 24: (void)parse_product_update(body); break;
    case 25: (void)parse_account_open(body); break;
    case 26: (void)parse_lifecycle_reason(body, (selector & 0x80) != 0); break;
    case 27: (void)parse_money(body, MoneyKind::deposit, std::nullopt); break;
    case 28: (void)parse_money(body, MoneyKind::withdrawal, std::string("idem-1")); break;
    case 29: (void)parse_money(body, MoneyKind::transfer, std::nullopt); break;
    case 30: (void)parse_money(body, MoneyKind::fee, std::nullopt); break;
    case 31: (void)parse_fx_rate_set(body); break;
    case 32: (void)parse_passbook_reprint(body); break;
    case 33: (void)parse_print_confirm(body); break;
    case 34: (void)parse_standing_order_create(body); break;
    case 35:
        (void)parse_transfer_batch(body, (selector & 0x80) != 0 ? std::optional<std::string>("idem-1") : std::nullopt);
        break;
    default:
        if (is_iso_date(body)) (void)days_from_civil_text(body);
        break;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto [selector, body] = corebank::fuzz::select(data, size);
    try {
        run(selector, body);
    } catch (const ApiError& error) {
        FUZZ_CHECK(error.status >= 400 && error.status < 500);
    }
    return 0;
}
