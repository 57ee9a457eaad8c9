// customers_triggers.cpp: the triggers that keep the CIF's rules whoever
// writes (docs/design/deposits.md; sql/releases/corebank--1.3--1.4.sql.in attaches them).
//
//   customer_guard          customers: identity fields never change; no DELETE
//   customer_case_guard     customer_cases: only OPEN -> RESOLVED, stamped;
//                           RESOLVED is terminal; the opening is frozen
//   beneficial_owner_guard  beneficial_owners: an individual owner of a
//                           corporate, 25% or more or control, at most 100%
//                           in all; removal is the only change
//   kyc_document_guard      kyc_documents: decided once, only with a pending
//                           kyc.document.verify change of someone else
// Errors are CB422 (a refused rule), CB409 (a terminal state), CB403 (four eyes).
// The append-only tables of the CIF (the interaction log, KYC checks and
// reviews), and TRUNCATE of customers and cases, are refused by
// refuse_change (entry/append_only_trigger.cpp).
#include <array>
#include <string_view>

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
using core::sqlstate_forbidden;
using core::sqlstate_unprocessable;

constexpr std::array<std::string_view, 17> customer_identity = {
    "id", "customer_number", "type", "first_name", "middle_name", "last_name", "date_of_birth", "gender",
    "national_id", "nationality", "legal_name", "trading_name", "registration_number", "incorporation_date",
    "country_of_incorporation", "created_at", "created_by"};

constexpr std::array<std::string_view, 4> case_resolution = {"status", "resolved_by", "resolved_at", "resolution"};

constexpr std::array<std::string_view, 3> owner_removal = {"active", "removed_at", "removed_by"};

constexpr std::array<std::string_view, 5> document_decision = {"status", "decided_by", "decided_at", "decision_note",
                                                               "parked_change_id"};

constexpr const char corporate_sql[] =
    "SELECT c.type FROM corebank.customers c WHERE c.id = $1::uuid";

constexpr const char ownership_sql[] =
    "SELECT coalesce(sum(o.ownership_bp), 0)::bigint FROM corebank.beneficial_owners o "
    "WHERE o.customer_id = $1::uuid AND o.active AND o.id <> $2::uuid";

// The change being applied: the approval marks it APPROVED with its checker
// before applying it (pg/parked_changes.cpp); PENDING is accepted too, so the
// rule does not depend on that order. The decider is the checker.
constexpr const char verify_change_sql[] =
    "SELECT p.maker_id::text FROM corebank.parked_changes p "
    "WHERE p.id = $1::uuid AND p.operation = 'kyc.document.verify' AND p.entity_type = 'kyc_document' "
    "  AND p.entity_id = $2 AND p.status IN ('PENDING', 'APPROVED') "
    "  AND (p.checker_id IS NULL OR p.checker_id = $3::uuid)";

void check_owner_insert(const TriggerData* data) {
    const HeapTuple row = trigger::new_row(data);
    const std::string customer = trigger::text(data, row, "customer_id").value();
    const std::optional<std::string> owner = trigger::text(data, row, "owner_customer_id");
    const std::string id = trigger::text(data, row, "id").value();
    const std::int64_t ownership = trigger::integer(data, row, "ownership_bp").value();
    spi::connect();
    const bool corporate = spi::execute(corporate_sql, {spi::Arg::text(customer)}) == 1 &&
                           spi::get_text(0, 1) == std::optional<std::string>("CORPORATE");
    const bool owner_individual = !owner || (spi::execute(corporate_sql, {spi::Arg::text(owner)}) == 1 &&
                                             spi::get_text(0, 1) == std::optional<std::string>("INDIVIDUAL"));
    spi::execute(ownership_sql, {spi::Arg::text(customer), spi::Arg::text(id)});
    const std::int64_t others = spi::get_int(0, 1).value();
    spi::finish();
    if (!corporate) fail(sqlstate_unprocessable, "beneficial owners are recorded for corporate customers only");
    if (!owner_individual) fail(sqlstate_unprocessable, "a beneficial owner is an individual");
    if (others + ownership > 10000) fail(sqlstate_unprocessable, "beneficial ownership would exceed 100%");
}

}  // namespace

/* trigger function: corebank_internal.customer_guard() (BEFORE UPDATE OR DELETE ON customers) */
COREBANK_TRIGGER(customer_guard) {
    if (trigger::is_delete(trigger)) {
        fail(sqlstate_unprocessable, "customers cannot be deleted; make them INACTIVE");
    }
    trigger::frozen(trigger, customer_identity, "a customer's identity field ");
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.customer_case_guard() (BEFORE UPDATE OR DELETE ON customer_cases) */
COREBANK_TRIGGER(customer_case_guard) {
    if (trigger::is_delete(trigger)) fail(sqlstate_unprocessable, "CIF cases cannot be deleted");
    const std::string from = trigger::text(trigger, trigger::old_row(trigger), "status").value();
    const std::string to = trigger::text(trigger, trigger::new_row(trigger), "status").value();
    if (from == "RESOLVED") fail(sqlstate_conflict, "a RESOLVED case is terminal");
    if (to != "RESOLVED") fail(sqlstate_unprocessable, "a case is changed only by resolving it");
    trigger::only_changes(trigger, case_resolution, "a case's ");
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.beneficial_owner_guard() (BEFORE INSERT OR UPDATE OR DELETE ON beneficial_owners) */
COREBANK_TRIGGER(beneficial_owner_guard) {
    if (trigger::is_delete(trigger)) fail(sqlstate_unprocessable, "beneficial owners are removed, not deleted");
    if (trigger::is_insert(trigger)) {
        check_owner_insert(trigger);
        return trigger::row_result(trigger);
    }
    if (!trigger::boolean(trigger, trigger::old_row(trigger), "active").value()) {
        fail(sqlstate_conflict, "a removed beneficial owner cannot change");
    }
    trigger::only_changes(trigger, owner_removal, "a beneficial owner's ");
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.kyc_document_guard() (BEFORE UPDATE OR DELETE ON kyc_documents) */
COREBANK_TRIGGER(kyc_document_guard) {
    if (trigger::is_delete(trigger)) fail(sqlstate_unprocessable, "KYC documents cannot be deleted");
    const HeapTuple old_row = trigger::old_row(trigger);
    const HeapTuple new_row = trigger::new_row(trigger);
    if (trigger::text(trigger, old_row, "status") != std::optional<std::string>("PENDING")) {
        fail(sqlstate_conflict, "a decided KYC document cannot change");
    }
    trigger::only_changes(trigger, document_decision, "a KYC document's ");
    if (trigger::text(trigger, new_row, "status") == std::optional<std::string>("PENDING")) return trigger::row_result(trigger);
    const std::optional<std::string> change_id = trigger::text(trigger, new_row, "parked_change_id");
    const std::optional<std::string> decided_by = trigger::text(trigger, new_row, "decided_by");
    const std::string id = trigger::text(trigger, new_row, "id").value();
    bool approved = false;
    if (change_id && decided_by) {
        spi::connect();
        const std::uint64_t rows = spi::execute(
            verify_change_sql, {spi::Arg::text(change_id), spi::Arg::text(id), spi::Arg::text(decided_by)});
        approved = rows == 1 && spi::get_text(0, 1) != decided_by;
        spi::finish();
    }
    if (!approved) {
        fail(sqlstate_forbidden,
             "a KYC document is decided only through an approved kyc.document.verify change, by someone other than its maker");
    }
    return trigger::row_result(trigger);
}
