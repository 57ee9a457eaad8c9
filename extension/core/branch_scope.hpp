// branch_scope.hpp: the rule of branch scoping (issue 15), written once.
//
// A transaction is either unscoped (head office, auditors, an application
// key acting for the institution, branch scoping off) or scoped to one
// branch. A scoped transaction sees a record only when the record belongs
// to that branch; a record that belongs to no branch (a change parked by
// head office) is head office's, so a scoped transaction does not see it.
// Pure C++: the database's corebank.branch_visible (pg/branch_scope.cpp)
// and the unit tests call the same function.
#pragma once

#include <array>
#include <optional>

namespace corebank::core::branch_scope {

using BranchId = std::array<unsigned char, 16>;  // a branch's uuid, as bytes

// nullopt scope: unscoped, sees everything.
constexpr bool visible(const std::optional<BranchId>& scope, const std::optional<BranchId>& record_branch) noexcept {
    if (!scope) return true;
    return record_branch && *record_branch == *scope;
}

}  // namespace corebank::core::branch_scope
