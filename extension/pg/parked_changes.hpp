// parked_changes.hpp: maker-checker (docs/design/ledger.md, Maker-checker).
//
// A sensitive change is parked (create) and applied only when a second
// person approves it (approve), in the same database transaction as the
// approval. What each operation checks when it is parked and does when it is
// approved is one row of a dispatch table (parked_changes.cpp):
//   transaction.release    a captured manual journal may be posted
//   transaction.reverse    post the mirror entries of a POSTED transaction
//   period.close           close an accounting period (no posting into it)
//   period.reopen          reopen a closed period
//   branch_scoping.update  a configuration change, {enabled: bool} (on or off)
//   kyc.document.verify    record a KYC document's decision (issue 4)
//   identity.kyc_tier.set  ENHANCED or a fall of an identity user's KYC tier,
//                          approved by a compliance officer (issue 14)
//   customer.identity_user.link  a core customer linked to its identity user (issue 14)
//
// A change belongs to its maker's branch when parked (branch_id; NULL is head
// office). With branch scoping on, another branch's change is an unknown id.
//
// Decisions, in this order: unknown id CB404; not PENDING CB409; past
// expires_at CB422 "the change has lapsed" (readers already see it LAPSED;
// parked_changes_lapse stores it, since a raised error rolls back any write);
// checker = maker CB403 "the maker of a change cannot approve it" (and the
// table's CHECK refuses it whoever writes); on approval only, a target whose
// state (parked_change_target) differs from the one recorded at parking CB409
// (issue 15, the approvals console). Locking: the change row is taken
// FOR UPDATE first, so two checkers cannot both decide it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pg/postgres.hpp"

namespace corebank::pg::parked {

struct NewChange {
    std::string operation;
    std::string entity_type;
    std::string entity_id;
    std::string payload_json;  // a JSON object
    std::string summary;
    std::string maker_id;
};

// Validates (per operation) and parks the change; returns its id.
// CB409 when a change of the same operation and entity is already pending.
std::string create(NewChange change);

// Applies and marks APPROVED; returns the change id.
void approve(const std::string& change_id, const std::string& checker_id, const std::optional<std::string>& comment);

// Marks REJECTED (nothing is applied).
void reject(const std::string& change_id, const std::string& checker_id, const std::string& reason);

// Stores LAPSED on up to batch_rows overdue PENDING changes; returns how many.
std::int64_t lapse_overdue(std::int32_t batch_rows);

// The ParkedChangeResponse of a change, for returning.
Datum render(const std::string& change_id);

}  // namespace corebank::pg::parked
