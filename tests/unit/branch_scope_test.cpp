// branch_scope_test.cpp: core/branch_scope.hpp, the one rule of branch
// scoping that corebank.branch_visible applies to every row (issue 15).
#include <gtest/gtest.h>

#include <optional>

#include "core/branch_scope.hpp"

namespace {

using corebank::core::branch_scope::BranchId;
using corebank::core::branch_scope::visible;

constexpr BranchId harare{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};
constexpr BranchId bulawayo{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17}};

TEST(BranchScope, UnscopedSeesEveryBranchAndHeadOffice) {
    EXPECT_TRUE(visible(std::nullopt, harare));
    EXPECT_TRUE(visible(std::nullopt, bulawayo));
    EXPECT_TRUE(visible(std::nullopt, std::nullopt));
}

TEST(BranchScope, ScopedSeesOnlyItsOwnBranch) {
    EXPECT_TRUE(visible(harare, harare));
    EXPECT_FALSE(visible(harare, bulawayo));  // differs in the last byte only
    EXPECT_FALSE(visible(bulawayo, harare));
}

TEST(BranchScope, ScopedDoesNotSeeHeadOfficeRecords) {
    // A record of no branch (a change parked by head office) is head office's.
    EXPECT_FALSE(visible(harare, std::nullopt));
}

static_assert(visible(std::nullopt, std::nullopt) && !visible(harare, std::nullopt), "usable at compile time");

}  // namespace
