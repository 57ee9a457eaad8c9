// branch_scope_tier_test.cpp: how the tier scopes its calls to the acting
// staff member's branch (httpd/src/db.hpp, Db::scope_to; issue 15): the
// scoped SQL, and that no request inherits another's scope.
#include <gtest/gtest.h>

#include <string>

#include "db.hpp"

namespace {

using corebank::httpd::branch_scoped_sql;
using corebank::httpd::Db;
using corebank::httpd::ScopeReset;

TEST(BranchScopedSql, AppendsTheScopeAsTheNextParameter) {
    EXPECT_EQ(branch_scoped_sql("SELECT corebank.core_customers_get($1::uuid)::text", 1),
              "SELECT corebank.core_customers_get($1::uuid)::text FROM corebank.actor_scope_set($2::uuid)");
    EXPECT_EQ(branch_scoped_sql("SELECT corebank.core_accounts_list($1::jsonb, $2::int)::text", 2),
              "SELECT corebank.core_accounts_list($1::jsonb, $2::int)::text FROM corebank.actor_scope_set($3::uuid)");
}

TEST(BranchScopedSql, AStatementWithoutParametersGetsTheFirst) {
    EXPECT_EQ(branch_scoped_sql("SELECT corebank.core_platform_banks()::text", 0),
              "SELECT corebank.core_platform_banks()::text FROM corebank.actor_scope_set($1::uuid)");
}

TEST(StatementDefaults, AStatementIsScopedUnlessItSaysOtherwise) {
    const corebank::httpd::Statement plain{"x", "SELECT 1", 0};
    EXPECT_TRUE(plain.branch_scoped);
    const corebank::httpd::Statement posting{"y", "SELECT 2", 0, corebank::httpd::unscoped};
    EXPECT_FALSE(posting.branch_scoped);
}

// A Db connects lazily, so scoping can be exercised without a server.
TEST(ScopeReset, ClearsTheScopeBeforeAndAfterARequest) {
    Db db("host=/nonexistent dbname=none", {});
    db.scope_to(std::string("11111111-1111-4111-8111-111111111111"));  // left by an earlier request
    {
        const ScopeReset reset(db);
        EXPECT_FALSE(db.scope_actor().has_value()) << "a request starts unscoped";
        db.scope_to(std::string("22222222-2222-4222-8222-222222222222"));  // authorize() of this request
        EXPECT_EQ(db.scope_actor().value(), "22222222-2222-4222-8222-222222222222");
    }
    EXPECT_FALSE(db.scope_actor().has_value()) << "and leaves nothing for the next";
}

}  // namespace
