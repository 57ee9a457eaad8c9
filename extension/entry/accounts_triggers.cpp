// accounts_triggers.cpp: the triggers that keep the account lifecycle and
// its satellites whoever writes (docs/design/deposits.md;
// sql/releases/corebank--1.3--1.4.sql.in attaches them).
//
//   account_lifecycle_guard  ledger_accounts: an account opens ACTIVE or
//                            PENDING_ACTIVATION; its status moves only along
//                            the state table; CLOSED needs a zero balance
//                            and no accrued interest and is terminal; no DELETE
//   deposit_account_guard    deposit_accounts: product, type, customer and
//                            opening are frozen; the daily run only moves
//                            forward; no DELETE
//   deposit_product_guard    deposit_products: code, type, currency, control
//                            GL and internal are frozen once an account uses
//                            the product; no DELETE
//   passbook_guard           passbooks: the book's identity and start are
//                            frozen; printing only moves forward; LOST and
//                            CLOSED are terminal; no DELETE
//   standing_order_guard     standing_orders: terms frozen; ACTIVE <-> PAUSED,
//                            -> CANCELLED or COMPLETED (terminal); no DELETE
// Errors are CB422 (a refused rule) or CB409 (a terminal state). The account
// status history, exchange rates and interest accruals are append-only, and
// deposit accounts are never truncated: refuse_change
// (entry/append_only_trigger.cpp) keeps them.
#include <array>
#include <string_view>
#include <utility>

#include "entry/trigger.hpp"
#include "pg/check.hpp"
#include "pg/ledger_common.hpp"
#include "pg/spi.hpp"

namespace {

using namespace corebank;
namespace trigger = corebank::pg::trigger;
namespace spi = corebank::pg::spi;
using corebank::pg::ledger::fail;
using core::sqlstate_conflict;
using core::sqlstate_unprocessable;

// The lifecycle's moves (docs/design/deposits.md, the state table).
constexpr std::array<std::pair<std::string_view, std::string_view>, 9> lifecycle_moves = {{
    {"PENDING_ACTIVATION", "ACTIVE"},
    {"PENDING_ACTIVATION", "CLOSED"},
    {"ACTIVE", "FROZEN"},
    {"ACTIVE", "DORMANT"},
    {"ACTIVE", "CLOSED"},
    {"DORMANT", "ACTIVE"},
    {"DORMANT", "FROZEN"},
    {"DORMANT", "CLOSED"},
    {"FROZEN", "ACTIVE"},
}};

bool lifecycle_allows(std::string_view from, std::string_view to) {
    for (const auto& [allowed_from, allowed_to] : lifecycle_moves) {
        if (allowed_from == from && allowed_to == to) return true;
    }
    return false;
}

constexpr const char accrued_sql[] =
    "SELECT d.accrued_micro <> 0 FROM corebank.deposit_accounts d WHERE d.id = $1::uuid";

constexpr const char product_used_sql[] =
    "SELECT 1 FROM corebank.deposit_accounts d WHERE d.product_id = $1::uuid LIMIT 1";

constexpr std::array<std::string_view, 7> deposit_account_frozen = {
    "id", "product_id", "account_type", "customer_id", "opened_on", "opened_by", "created_at"};

constexpr std::array<std::string_view, 5> product_identity = {"code", "account_type", "currency", "gl_account_code",
                                                              "internal"};

constexpr std::array<std::string_view, 7> passbook_frozen = {
    "id", "account_id", "book_number", "replaces_id", "starts_after_entry_id", "issued_at", "issued_by"};

constexpr std::array<std::string_view, 12> standing_order_terms = {
    "id", "reference", "source_account_id", "target_account_id", "beneficiary_id", "amount_minor", "currency",
    "frequency", "start_date", "end_date", "created_by", "created_at"};

}  // namespace

/* trigger function: corebank_internal.account_lifecycle_guard() (ledger_accounts: BEFORE INSERT, BEFORE UPDATE OF status, BEFORE DELETE, BEFORE TRUNCATE) */
COREBANK_TRIGGER(account_lifecycle_guard) {
    if (trigger::is_truncate(trigger) || trigger::is_delete(trigger)) {
        fail(sqlstate_unprocessable, "accounts cannot be deleted; close them");
    }
    const HeapTuple new_row = trigger::new_row(trigger);
    const std::string to = trigger::text(trigger, new_row, "status").value();
    if (trigger::is_insert(trigger)) {
        if (to != "ACTIVE" && to != "PENDING_ACTIVATION") {
            fail(sqlstate_unprocessable, "an account opens ACTIVE or PENDING_ACTIVATION");
        }
        return trigger::row_result(trigger);
    }
    const std::string from = trigger::text(trigger, trigger::old_row(trigger), "status").value();
    if (from == to) return trigger::row_result(trigger);
    if (from == "CLOSED") fail(sqlstate_conflict, "a CLOSED account is terminal");
    if (!lifecycle_allows(from, to)) fail(sqlstate_unprocessable, "account status cannot move from " + from + " to " + to);
    if (to == "CLOSED") {
        if (trigger::integer(trigger, new_row, "balance_minor") != std::optional<std::int64_t>(0)) {
            fail(sqlstate_unprocessable, "an account is closed only at a zero balance");
        }
        const std::string id = trigger::text(trigger, new_row, "id").value();
        spi::connect();
        const bool accrued = spi::execute(accrued_sql, {spi::Arg::text(id)}) == 1 && spi::get_bool(0, 1).value();
        spi::finish();
        if (accrued) fail(sqlstate_unprocessable, "an account with accrued interest not yet posted cannot be closed");
    }
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.deposit_account_guard() (BEFORE UPDATE OR DELETE ON deposit_accounts) */
COREBANK_TRIGGER(deposit_account_guard) {
    if (trigger::is_delete(trigger)) fail(sqlstate_unprocessable, "accounts cannot be deleted; close them");
    trigger::frozen(trigger, deposit_account_frozen, "an account's ");
    const std::optional<std::int32_t> before = trigger::date_days(trigger, trigger::old_row(trigger), "processed_through");
    const std::optional<std::int32_t> after = trigger::date_days(trigger, trigger::new_row(trigger), "processed_through");
    CB_CHECK(before && after);  // NOT NULL
    if (*after < *before) fail(sqlstate_unprocessable, "the daily run of an account only moves forward");
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.deposit_product_guard() (BEFORE UPDATE OR DELETE ON deposit_products) */
COREBANK_TRIGGER(deposit_product_guard) {
    if (trigger::is_delete(trigger)) fail(sqlstate_unprocessable, "deposit products cannot be deleted; deactivate them");
    if (trigger::changed(trigger, "id")) fail(sqlstate_unprocessable, "a deposit product's id cannot change");
    bool identity_changed = false;
    trigger::for_each_changed(trigger, [&](const char* column) {
        identity_changed = identity_changed || trigger::listed(product_identity, column);
    });
    if (!identity_changed) return trigger::row_result(trigger);
    const std::string id = trigger::text(trigger, trigger::old_row(trigger), "id").value();
    spi::connect();
    const bool used = spi::execute(product_used_sql, {spi::Arg::text(id)}) == 1;
    spi::finish();
    if (used) {
        fail(sqlstate_unprocessable,
             "a deposit product's code, type, currency, control GL and internal flag are frozen once an account uses it");
    }
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.passbook_guard() (BEFORE UPDATE OR DELETE ON passbooks) */
COREBANK_TRIGGER(passbook_guard) {
    if (trigger::is_delete(trigger)) fail(sqlstate_unprocessable, "passbooks cannot be deleted");
    const HeapTuple old_row = trigger::old_row(trigger);
    const HeapTuple new_row = trigger::new_row(trigger);
    const std::string from = trigger::text(trigger, old_row, "status").value();
    const std::string to = trigger::text(trigger, new_row, "status").value();
    if (from != "ACTIVE") fail(sqlstate_conflict, "a " + from + " passbook cannot change");
    if (to != "ACTIVE" && to != "LOST" && to != "CLOSED") fail(sqlstate_unprocessable, "unknown passbook status " + to);
    trigger::frozen(trigger, passbook_frozen, "a passbook's ");
    const std::optional<std::int64_t> printed_before = trigger::integer(trigger, old_row, "printed_through_entry_id");
    const std::optional<std::int64_t> printed_after = trigger::integer(trigger, new_row, "printed_through_entry_id");
    if (printed_before && (!printed_after || *printed_after < *printed_before)) {
        fail(sqlstate_unprocessable, "a passbook's printing only moves forward");
    }
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.standing_order_guard() (BEFORE UPDATE OR DELETE ON standing_orders) */
COREBANK_TRIGGER(standing_order_guard) {
    if (trigger::is_delete(trigger)) fail(sqlstate_unprocessable, "standing orders cannot be deleted; cancel them");
    const std::string from = trigger::text(trigger, trigger::old_row(trigger), "status").value();
    const std::string to = trigger::text(trigger, trigger::new_row(trigger), "status").value();
    if (from == "CANCELLED" || from == "COMPLETED") fail(sqlstate_conflict, "a " + from + " standing order is terminal");
    const bool moves = from == to || (from == "ACTIVE" && (to == "PAUSED" || to == "CANCELLED" || to == "COMPLETED")) ||
                       (from == "PAUSED" && (to == "ACTIVE" || to == "CANCELLED"));
    if (!moves) fail(sqlstate_unprocessable, "standing order status cannot move from " + from + " to " + to);
    trigger::frozen(trigger, standing_order_terms, "a standing order's ");
    return trigger::row_result(trigger);
}
