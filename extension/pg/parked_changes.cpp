// parked_changes.cpp: see parked_changes.hpp.
#include "pg/parked_changes.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/ledger.hpp"
#include "pg/check.hpp"
#include "pg/ledger_common.hpp"
#include "pg/ledger_posting.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::parked {

namespace {

using core::sqlstate_conflict;
using core::sqlstate_forbidden;
using core::sqlstate_not_found;
using core::sqlstate_unprocessable;
using core::sqlstate_validation;
using ledger::fail;

struct Change {
    std::string id;
    std::string operation;
    std::string entity_type;
    std::string entity_id;
    std::string payload_json;
    std::string maker_id;
};

/*---- statements ----*/

constexpr const char lapse_same_sql[] =
    "UPDATE corebank.parked_changes SET status = 'LAPSED', decided_at = now() "
    "WHERE operation = $1 AND entity_type = $2 AND entity_id = $3 AND status = 'PENDING' AND expires_at <= now()";

// branch_id: the maker's branch when parked (issue 15, branch scoping: a
// change is its maker's branch's business); NULL, head office's, for a maker
// with no branch or no staff identity (a DBA, the system actor).
constexpr const char insert_sql[] =
    "INSERT INTO corebank.parked_changes (operation, entity_type, entity_id, payload, summary, maker_id, expires_at, "
    "                                     target_before, branch_id) "
    "SELECT $1, $2, $3, $4::jsonb, $5, $6::uuid, now() + make_interval(hours => c.lapse_hours), "
    "       corebank_internal.parked_change_target($2, $3), "
    "       (SELECT b.id FROM corebank.auth_users u JOIN corebank.branches b ON b.code = u.branch_code "
    "        WHERE u.id = $6::uuid) "
    "FROM corebank.platform_config c "
    "ON CONFLICT DO NOTHING RETURNING id::text";

// Another branch's change is absent to a scoped checker (issue 15), for the
// tier and psql alike.
constexpr const char lock_sql[] =
    "SELECT p.operation, p.entity_type, p.entity_id, p.payload::text, p.maker_id::text, p.status, "
    "       p.expires_at <= now() "
    "FROM corebank.parked_changes p WHERE p.id = $1::uuid AND corebank.branch_visible(p.branch_id) FOR UPDATE";

// The target as it is now against the state recorded at parking (issue 15,
// the approvals console); a change parked before 1.8 recorded none.
constexpr const char target_unchanged_sql[] =
    "SELECT p.target_before IS NULL "
    "    OR p.target_before IS NOT DISTINCT FROM corebank_internal.parked_change_target(p.entity_type, p.entity_id) "
    "FROM corebank.parked_changes p WHERE p.id = $1::uuid";

constexpr const char approve_sql[] =
    "UPDATE corebank.parked_changes "
    "SET status = 'APPROVED', checker_id = $2::uuid, decided_at = now(), comment = $3 "
    "WHERE id = $1::uuid AND status = 'PENDING'";

// Filled once, after the change is applied (parked_change_guard allows exactly this).
constexpr const char record_result_sql[] =
    "UPDATE corebank.parked_changes SET result = $2::jsonb WHERE id = $1::uuid AND status = 'APPROVED' AND result IS NULL";

constexpr const char reject_sql[] =
    "UPDATE corebank.parked_changes "
    "SET status = 'REJECTED', checker_id = $2::uuid, decided_at = now(), reason = $3 "
    "WHERE id = $1::uuid AND status = 'PENDING'";

constexpr const char lapse_due_sql[] =
    "WITH due AS (SELECT p.id FROM corebank.parked_changes p "
    "             WHERE p.status = 'PENDING' AND p.expires_at <= now() "
    "             ORDER BY p.expires_at LIMIT $1 FOR UPDATE SKIP LOCKED) "
    "UPDATE corebank.parked_changes p SET status = 'LAPSED', decided_at = now() FROM due WHERE p.id = due.id";

constexpr const char render_sql[] = "SELECT corebank_internal.parked_change_json($1::uuid)";

// transaction.*
constexpr const char transaction_state_sql[] =
    "SELECT t.status, t.released, t.reverses_id IS NOT NULL, t.reversed_by_id IS NOT NULL "
    "FROM corebank.transactions t WHERE t.id = $1::uuid";

constexpr const char release_sql[] =
    "UPDATE corebank.transactions SET released = true "
    "WHERE id = $1::uuid AND status = 'PENDING' AND NOT released";

// A reversal amends the original, so another branch's transaction is absent
// to a scoped maker (issue 15); releasing a just-captured journal is part of
// capturing it, a posting, and is not scoped.
constexpr const char transaction_visible_sql[] = "SELECT corebank_internal.transaction_require_visible($1::uuid)";

constexpr const char transaction_json_sql[] = "SELECT corebank_internal.transaction_json($1::uuid)::text";

constexpr const char original_sql[] =
    "SELECT t.status, t.reverses_id IS NOT NULL, t.type, t.reference, t.branch_id::text, t.channel "
    "FROM corebank.transactions t WHERE t.id = $1::uuid FOR UPDATE";

constexpr const char original_entries_sql[] =
    "SELECT e.line_no, e.gl_account_id::text, e.ledger_account_id::text, e.currency::text, e.side, e.amount_minor, "
    "       e.narrative "
    "FROM corebank.journal_entries e WHERE e.transaction_id = $1::uuid ORDER BY e.line_no";

constexpr const char mark_reversed_sql[] =
    "UPDATE corebank.transactions SET status = 'REVERSED', reversed_by_id = $2::uuid "
    "WHERE id = $1::uuid AND status = 'POSTED'";

constexpr const char payload_reason_sql[] =
    "SELECT jsonb_typeof($1::jsonb -> 'reason'), $1::jsonb ->> 'reason'";

// period.*
constexpr const char period_state_sql[] =
    "SELECT coalesce((SELECT p.status FROM corebank.accounting_periods p WHERE p.period = $1::bpchar), 'OPEN'), "
    "       to_char(corebank_internal.business_today(), 'YYYY-MM')";

constexpr const char close_period_sql[] =
    "INSERT INTO corebank.accounting_periods AS p (period, status, closed_at, closed_by) "
    "VALUES ($1::bpchar, 'CLOSED', now(), $2::uuid) "
    "ON CONFLICT (period) DO UPDATE SET status = 'CLOSED', closed_at = now(), closed_by = excluded.closed_by "
    "WHERE p.status = 'OPEN' "
    "RETURNING p.period";

constexpr const char reopen_period_sql[] =
    "UPDATE corebank.accounting_periods SET status = 'OPEN', closed_at = NULL, closed_by = NULL "
    "WHERE period = $1::bpchar AND status = 'CLOSED'";

constexpr const char period_json_sql[] = "SELECT corebank_internal.period_json($1)::text";

// branch_scoping.update
constexpr const char payload_enabled_sql[] = "SELECT jsonb_typeof($1::jsonb -> 'enabled')";

constexpr const char branch_scoping_sql[] =
    "UPDATE corebank.platform_config SET branch_scoping = ($1::jsonb ->> 'enabled')::bool, updated_at = now(), "
    "    updated_by = $2::uuid";

constexpr const char branch_scoping_json_sql[] =
    "SELECT jsonb_build_object('enabled', c.branch_scoping, "
    "                          'updatedAt', corebank_internal.iso_utc(c.updated_at))::text "
    "FROM corebank.platform_config c";

/*---- helpers ----*/

std::string single_text(const char* sql, std::initializer_list<spi::Arg> args) {
    const std::uint64_t rows = spi::execute(sql, args);
    CB_CHECK(rows == 1);
    return spi::get_text(0, 1).value();
}

void require_uuid_entity(const Change& change) {
    if (!core::ledger::canonical_uuid(change.entity_id)) {
        fail(sqlstate_validation, "entity_id: must be a transaction id (UUID)");
    }
}

/*---- transaction.release ----*/

void release_validate(Change& change) {
    require_uuid_entity(change);
    if (spi::execute(transaction_state_sql, {spi::Arg::text(change.entity_id)}) == 0) {
        fail(sqlstate_not_found, "Transaction not found");
    }
    if (spi::get_text(0, 1).value() != "PENDING" || spi::get_bool(0, 2).value()) {
        fail(sqlstate_conflict, "transaction is not waiting for release");
    }
}

std::string release_apply(const Change& change, const std::string& /*checker_id*/) {
    if (spi::execute(release_sql, {spi::Arg::text(change.entity_id)}) != 1) {
        fail(sqlstate_conflict, "transaction is not waiting for release");
    }
    return single_text(transaction_json_sql, {spi::Arg::text(change.entity_id)});
}

/*---- transaction.reverse ----*/

void reverse_validate(Change& change) {
    require_uuid_entity(change);
    spi::execute(transaction_visible_sql, {spi::Arg::text(change.entity_id)});
    if (spi::execute(transaction_state_sql, {spi::Arg::text(change.entity_id)}) == 0) {
        fail(sqlstate_not_found, "Transaction not found");
    }
    const std::string status = spi::get_text(0, 1).value();
    const bool is_reversal = spi::get_bool(0, 3).value();
    if (status == "REVERSED") fail(sqlstate_conflict, "transaction is already reversed");
    if (status != "POSTED") fail(sqlstate_conflict, "only a posted transaction can be reversed");
    if (is_reversal) fail(sqlstate_unprocessable, "a reversal cannot be reversed; post a new transaction");
    spi::execute(payload_reason_sql, {spi::Arg::text(change.payload_json)});
    const std::optional<std::string> type = spi::get_text(0, 1);
    if (type && *type != "string" && *type != "null") fail(sqlstate_validation, "reason: must be a string");
    const std::optional<std::string> reason = spi::get_text(0, 2);
    if (reason && core::ledger::utf8_length(*reason) > 1000) {
        fail(sqlstate_validation, "reason: must be at most 1000 characters");
    }
}

// Mirror lines: same accounts and amounts, sides swapped.
std::vector<posting::Line> mirror_lines(const std::string& transaction_id) {
    const std::uint64_t rows = spi::execute(original_entries_sql, {spi::Arg::text(transaction_id)});
    CB_CHECK(rows >= core::ledger::lines_min);
    std::vector<posting::Line> lines = posting::lines_from_result(rows);
    for (posting::Line& line : lines) line.side = line.side == 'D' ? 'C' : 'D';
    return lines;
}

std::string reverse_apply(const Change& change, const std::string& checker_id) {
    // The original's row lock serialises two reversals of one transaction.
    if (spi::execute(original_sql, {spi::Arg::text(change.entity_id)}) == 0) {
        fail(sqlstate_not_found, "Transaction not found");
    }
    if (spi::get_text(0, 1).value() != "POSTED") fail(sqlstate_conflict, "transaction is no longer posted");
    CB_CHECK(!spi::get_bool(0, 2).value());
    posting::Header header;
    header.id = ledger::random_uuid();
    header.type = spi::get_text(0, 3).value();
    const std::string reference = spi::get_text(0, 4).value();
    header.reference = "REV-" + reference.substr(0, 76);
    header.description = "Reversal of " + reference;
    header.branch_id = spi::get_text(0, 5).value();
    header.channel = spi::get_text(0, 6).value();
    header.operator_id = checker_id;
    header.maker_id = change.maker_id;
    header.reverses_id = change.entity_id;

    std::vector<posting::Line> lines = mirror_lines(change.entity_id);
    const posting::Accounts accounts = posting::load_accounts(lines, true);
    posting::bind_accounts(lines, accounts);
    posting::post(header, lines, accounts, posting::GlRule::any);
    if (spi::execute(mark_reversed_sql, {spi::Arg::text(change.entity_id), spi::Arg::text(header.id)}) != 1) {
        fail(sqlstate_conflict, "transaction is no longer posted");
    }
    return single_text(transaction_json_sql, {spi::Arg::text(header.id)});
}

/*---- period.close / period.reopen ----*/

struct PeriodState {
    std::string status;
    std::string current_period;
};

PeriodState period_state(const Change& change) {
    if (!core::ledger::is_period(change.entity_id)) fail(sqlstate_validation, "period: must be YYYY-MM");
    const std::uint64_t rows = spi::execute(period_state_sql, {spi::Arg::text(change.entity_id)});
    CB_CHECK(rows == 1);
    return PeriodState{spi::get_text(0, 1).value(), spi::get_text(0, 2).value()};
}

void close_validate(Change& change) {
    const PeriodState state = period_state(change);
    if (state.status == "CLOSED") fail(sqlstate_conflict, "accounting period " + change.entity_id + " is already closed");
    // YYYY-MM strings order like the months they name.
    if (change.entity_id > state.current_period) {
        fail(sqlstate_unprocessable, "a future accounting period cannot be closed");
    }
}

std::string close_apply(const Change& change, const std::string& checker_id) {
    // Waits for postings in flight that hold the period row FOR SHARE.
    if (spi::execute(close_period_sql, {spi::Arg::text(change.entity_id), spi::Arg::text(checker_id)}) != 1) {
        fail(sqlstate_conflict, "accounting period " + change.entity_id + " is already closed");
    }
    return single_text(period_json_sql, {spi::Arg::text(change.entity_id)});
}

void reopen_validate(Change& change) {
    const PeriodState state = period_state(change);
    if (state.status != "CLOSED") fail(sqlstate_conflict, "accounting period " + change.entity_id + " is not closed");
}

std::string reopen_apply(const Change& change, const std::string& /*checker_id*/) {
    if (spi::execute(reopen_period_sql, {spi::Arg::text(change.entity_id)}) != 1) {
        fail(sqlstate_conflict, "accounting period " + change.entity_id + " is not closed");
    }
    return single_text(period_json_sql, {spi::Arg::text(change.entity_id)});
}

/*---- branch_scoping.update ----*/

void branch_scoping_validate(Change& change) {
    if (change.entity_id != "branch_scoping") fail(sqlstate_validation, "entity_id: must be branch_scoping");
    spi::execute(payload_enabled_sql, {spi::Arg::text(change.payload_json)});
    if (spi::get_text(0, 1) != std::optional<std::string>("boolean")) {
        fail(sqlstate_validation, "enabled: must be true or false");
    }
}

// On or off alike (issue 15: branch scoping is enforced since 1.8).
std::string branch_scoping_apply(const Change& change, const std::string& checker_id) {
    spi::execute(branch_scoping_sql, {spi::Arg::text(change.payload_json), spi::Arg::text(checker_id)});
    return single_text(branch_scoping_json_sql, {});
}

/*---- kyc.document.verify (issue 4) ----*/

// The rules live with the KYC tables (sql/releases/corebank--1.3--1.4.sql.in): the
// document exists and is PENDING when parked; approval records the decision
// with the checker as decider.
constexpr const char kyc_verify_validate_sql[] =
    "SELECT corebank_internal.kyc_document_verify_validate($1, $2::jsonb)";

constexpr const char kyc_verify_apply_sql[] =
    "SELECT corebank_internal.kyc_document_verify_apply($1, $2::jsonb, $3::uuid, $4::uuid)::text";

void kyc_verify_validate(Change& change) {
    spi::execute(kyc_verify_validate_sql, {spi::Arg::text(change.entity_id), spi::Arg::text(change.payload_json)});
}

std::string kyc_verify_apply(const Change& change, const std::string& checker_id) {
    return single_text(kyc_verify_apply_sql, {spi::Arg::text(change.entity_id), spi::Arg::text(change.payload_json),
                                              spi::Arg::text(checker_id), spi::Arg::text(change.id)});
}

/*---- identity.kyc_tier.set and customer.identity_user.link (issue 14, parts 4 and 5) ----*/

// The rules live with the KYC tiers (sql/deposits/kyc_identity_*): ENHANCED
// or a fall of an identity user's tier, approved by a compliance officer; a
// core customer linked to its identity user.
constexpr const char kyc_tier_validate_sql[] = "SELECT corebank_internal.kyc_identity_tier_validate($1, $2::jsonb)";

constexpr const char kyc_tier_apply_sql[] =
    "SELECT corebank_internal.kyc_identity_tier_apply($1, $2::jsonb, $3::uuid, $4::uuid)::text";

constexpr const char kyc_link_validate_sql[] = "SELECT corebank_internal.kyc_identity_link_validate($1, $2::jsonb)";

constexpr const char kyc_link_apply_sql[] =
    "SELECT corebank_internal.kyc_identity_link_apply($1, $2::jsonb, $3::uuid, $4::uuid)::text";

void kyc_tier_validate(Change& change) {
    spi::execute(kyc_tier_validate_sql, {spi::Arg::text(change.entity_id), spi::Arg::text(change.payload_json)});
}

std::string kyc_tier_apply(const Change& change, const std::string& checker_id) {
    return single_text(kyc_tier_apply_sql, {spi::Arg::text(change.entity_id), spi::Arg::text(change.payload_json),
                                            spi::Arg::text(checker_id), spi::Arg::text(change.id)});
}

void kyc_link_validate(Change& change) {
    spi::execute(kyc_link_validate_sql, {spi::Arg::text(change.entity_id), spi::Arg::text(change.payload_json)});
}

std::string kyc_link_apply(const Change& change, const std::string& checker_id) {
    return single_text(kyc_link_apply_sql, {spi::Arg::text(change.entity_id), spi::Arg::text(change.payload_json),
                                            spi::Arg::text(checker_id), spi::Arg::text(change.id)});
}

/*---- the dispatch table ----*/

struct Operation {
    std::string_view name;
    std::string_view entity_type;
    void (*validate)(Change& change);                                         // when parked
    std::string (*apply)(const Change& change, const std::string& checker);  // when approved; the result JSON
};

constexpr std::array<Operation, 8> operations = {{
    {"transaction.release", "transaction", release_validate, release_apply},
    {"transaction.reverse", "transaction", reverse_validate, reverse_apply},
    {"period.close", "period", close_validate, close_apply},
    {"period.reopen", "period", reopen_validate, reopen_apply},
    {"branch_scoping.update", "platform", branch_scoping_validate, branch_scoping_apply},
    {"kyc.document.verify", "kyc_document", kyc_verify_validate, kyc_verify_apply},
    {"identity.kyc_tier.set", "identity_user", kyc_tier_validate, kyc_tier_apply},
    {"customer.identity_user.link", "customer", kyc_link_validate, kyc_link_apply},
}};

const Operation* find_operation(std::string_view name) {
    const auto found = std::find_if(operations.begin(), operations.end(),
                                    [&](const Operation& operation) { return operation.name == name; });
    return found == operations.end() ? nullptr : &*found;
}

// Locks the change and applies the decision rules shared by approve and
// reject (see the header for their order).
Change lock_pending(const std::string& change_id, const std::string& checker_id, const char* verb) {
    if (spi::execute(lock_sql, {spi::Arg::text(change_id)}) == 0) fail(sqlstate_not_found, "Approval not found");
    Change change{change_id,
                  spi::get_text(0, 1).value(),
                  spi::get_text(0, 2).value(),
                  spi::get_text(0, 3).value(),
                  spi::get_text(0, 4).value(),
                  spi::get_text(0, 5).value()};
    const std::string status = spi::get_text(0, 6).value();
    const bool expired = spi::get_bool(0, 7).value();
    if (status != "PENDING") fail(sqlstate_conflict, "the change is not pending (it is " + status + ")");
    if (expired) fail(sqlstate_unprocessable, "the change has lapsed");
    if (checker_id == change.maker_id) {
        fail(sqlstate_forbidden, std::string("the maker of a change cannot ") + verb + " it");
    }
    return change;
}

}  // namespace

std::string create(NewChange request) {
    const Operation* operation = find_operation(request.operation);
    if (operation == nullptr) fail(sqlstate_validation, "operation: unknown operation '" + request.operation + "'");
    if (request.entity_type != operation->entity_type) {
        fail(sqlstate_validation, "entity_type: must be " + std::string(operation->entity_type) + " for " +
                                      request.operation);
    }
    if (request.entity_id.empty() || core::ledger::utf8_length(request.entity_id) > 100) {
        fail(sqlstate_validation, "entity_id: must be 1 to 100 characters");
    }
    if (request.summary.empty() || core::ledger::utf8_length(request.summary) > 500) {
        fail(sqlstate_validation, "summary: must be 1 to 500 characters");
    }
    Change change{{}, request.operation, request.entity_type, request.entity_id, request.payload_json,
                  request.maker_id};
    operation->validate(change);

    // An overdue change of the same entity no longer blocks a new one.
    spi::execute(lapse_same_sql, {spi::Arg::text(change.operation), spi::Arg::text(change.entity_type),
                                  spi::Arg::text(change.entity_id)});
    const std::uint64_t rows = spi::execute(
        insert_sql, {spi::Arg::text(change.operation), spi::Arg::text(change.entity_type),
                     spi::Arg::text(change.entity_id), spi::Arg::text(change.payload_json),
                     spi::Arg::text(request.summary), spi::Arg::text(change.maker_id)});
    if (rows == 0) fail(sqlstate_conflict, "a " + change.operation + " of this " + change.entity_type +
                                               " is already awaiting approval");
    return spi::get_text(0, 1).value();
}

void approve(const std::string& change_id, const std::string& checker_id, const std::optional<std::string>& comment) {
    const Change change = lock_pending(change_id, checker_id, "approve");
    const Operation* operation = find_operation(change.operation);
    if (operation == nullptr) fail(sqlstate_unprocessable, "unknown operation '" + change.operation + "'");
    // The checker approves what was shown: a target changed since parking is a
    // state conflict, and the raised error leaves the change PENDING.
    CB_CHECK(spi::execute(target_unchanged_sql, {spi::Arg::text(change_id)}) == 1);
    if (!spi::get_bool(0, 1).value()) {
        fail(sqlstate_conflict, "the " + change.entity_type +
                                    " changed since this change was parked; review the change again (it stays pending)");
    }
    // Marked APPROVED first, so the applied entity renders as approved in the result.
    const std::uint64_t rows = spi::execute(approve_sql, {spi::Arg::text(change_id), spi::Arg::text(checker_id),
                                                          spi::Arg::text(comment)});
    CB_CHECK(rows == 1);  // the row is locked and was PENDING
    const std::string result = operation->apply(change, checker_id);
    CB_CHECK(spi::execute(record_result_sql, {spi::Arg::text(change_id), spi::Arg::jsonb(result)}) == 1);
}

void reject(const std::string& change_id, const std::string& checker_id, const std::string& reason) {
    lock_pending(change_id, checker_id, "reject");
    const std::uint64_t rows =
        spi::execute(reject_sql, {spi::Arg::text(change_id), spi::Arg::text(checker_id), spi::Arg::text(reason)});
    CB_CHECK(rows == 1);
}

std::int64_t lapse_overdue(std::int32_t batch_rows) {
    CB_CHECK(batch_rows > 0);
    return static_cast<std::int64_t>(spi::execute(lapse_due_sql, {spi::Arg::int4(batch_rows)}));
}

Datum render(const std::string& change_id) {
    const std::uint64_t rows = spi::execute(render_sql, {spi::Arg::text(change_id)});
    CB_CHECK(rows == 1);
    bool is_null = true;
    const Datum rendered = spi::get_jsonb_for_return(0, 1, &is_null);
    if (is_null) fail(sqlstate_not_found, "Approval not found");
    return rendered;
}

}  // namespace corebank::pg::parked
