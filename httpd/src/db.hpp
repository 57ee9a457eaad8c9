// db.hpp: one libpq connection with lazily prepared statements.
//
// Each worker thread owns one Db (no sharing, no locks). Parameters and
// results travel in text format; bytea goes as "\x<hex>". Errors surface as
// DbError (with the SQLSTATE, for the one mapping table in db_errors.cpp) or
// DbUnavailable (the server is away; the next call reconnects by itself).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

typedef struct pg_conn PGconn;

namespace corebank::httpd {

struct Statement {
    const char* name;  // unique per statement; prepared once per connection
    const char* sql;
    int param_count;
    // Whether the statement may be scoped to the acting staff member's
    // branch (Db::scope_to): true for every "SELECT corebank.f(...)::text"
    // call. False for the few whose SQL has its own top-level FROM, to which
    // the scope's FROM cannot be appended; they must not read branch data.
    bool branch_scoped = true;
};

// The value of Statement::branch_scoped for a statement that is not scoped.
constexpr bool unscoped = false;

using Param = std::optional<std::string>;  // nullopt is SQL NULL

struct DbError : std::runtime_error {
    std::string sqlstate;
    // PostgreSQL's DETAIL: may quote row values (personal data), so it is
    // never logged nor sent (db_errors.cpp); kept for a debugger only.
    std::string detail;
    DbError(std::string sqlstate_, const std::string& message, std::string detail_)
        : std::runtime_error(message), sqlstate(std::move(sqlstate_)), detail(std::move(detail_)) {}
};

struct DbUnavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct QueryResult {
    std::vector<std::vector<std::optional<std::string>>> rows;
    // The first column of the only row; throws DbError when the shape differs.
    const std::optional<std::string>& scalar() const;
};

// What the read-replica connections of one process share (read_database_url,
// docs/scale-out.md): whether the replica is failing, so that an outage is
// logged once per streak, and when to try it again. Process-local bookkeeping
// only; no other tier process needs it.
class ReplicaHealth {
public:
    // How long reads skip the replica after it failed before one tries it again.
    static constexpr std::int64_t retry_after_ms = 5000;

    bool should_try() const;                 // false while backing off after a failure
    void succeeded();                        // logs once when a failing replica answers again
    void failed(const std::string& why);     // logs once per failure streak; starts the back-off

private:
    std::atomic<bool> failing_{false};
    std::atomic<std::int64_t> retry_at_ms_{0};  // steady clock
};

class Db {
public:
    // settings: GUCs applied at connect time (e.g. corebank.issuer).
    Db(std::string url, std::vector<std::pair<std::string, std::string>> settings);
    ~Db();
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;

    QueryResult exec(const Statement& statement, const std::vector<Param>& params);
    // exec() with statement_timeout set to `timeout_ms` for this one call (a
    // batch of transfers may wait for the account locks of the batches before
    // it); the connection's own value comes back afterwards, also when the
    // call fails.
    QueryResult exec_with_timeout(const Statement& statement, const std::vector<Param>& params, int timeout_ms);
    // The acting staff member of the request being served (the core tier's
    // authorize sets it; the route clears it before and after each request),
    // or nullopt. While set, every exec() of a branch_scoped statement runs as
    // "<statement> FROM corebank.actor_scope_set($n::uuid)" in the same round
    // trip, so the database scopes the call to the member's branch
    // (docs/core-banking.md "Branch scoping").
    void scope_to(std::optional<std::string> actor) { scope_actor_ = std::move(actor); }
    const std::optional<std::string>& scope_actor() const { return scope_actor_; }
    // Runs a statement that is not prepared (admin tools, health checks).
    QueryResult exec_once(const std::string& sql, const std::vector<Param>& params);
    void disconnect() noexcept;

    // Gives this connection a second one, to a read replica, that exec_read
    // uses. The replica connection opens lazily, like this one.
    void attach_replica(std::unique_ptr<Db> replica, std::shared_ptr<ReplicaHealth> health);
    // A read-only statement whose answer may lag the primary by the replication
    // delay: on the attached replica when there is one and it answers, else on
    // this connection. A replica that is away (DbUnavailable) or that cancels
    // the query for a recovery conflict (40001) sends the call here instead.
    QueryResult exec_read(const Statement& statement, const std::vector<Param>& params);

private:
    void ensure_connected();
    QueryResult take_result(void* result);
    QueryResult exec_prepared(const Statement& statement, const std::vector<Param>& params);
    // The scoped variant of a statement, built once per connection.
    struct ScopedStatement {
        std::string name;
        std::string sql;
    };
    Statement scoped(const Statement& statement);
    std::optional<std::string> scope_actor_;
    std::unordered_map<const Statement*, ScopedStatement> scoped_statements_;

    std::string url_;
    std::vector<std::pair<std::string, std::string>> settings_;
    PGconn* conn_ = nullptr;
    std::unordered_set<std::string> prepared_;
    std::unique_ptr<Db> replica_;
    std::shared_ptr<ReplicaHealth> replica_health_;
};

// Clears a connection's branch scope (Db::scope_to) for the life of one
// request, before and after it, so that no request inherits another's: the
// worker's dispatch (service.cpp) holds one around every handler.
class ScopeReset {
public:
    explicit ScopeReset(Db& db) : db_(db) { db_.scope_to(std::nullopt); }
    ~ScopeReset() { db_.scope_to(std::nullopt); }
    ScopeReset(const ScopeReset&) = delete;
    ScopeReset& operator=(const ScopeReset&) = delete;

private:
    Db& db_;
};

// The SQL of a statement scoped to an actor (Db::scope_to): the statement's
// own SQL with "FROM corebank.actor_scope_set($<param_count + 1>::uuid)"
// appended, so the scope is set by a function scan before the select list
// (the API call) is evaluated, in the same statement and transaction.
std::string branch_scoped_sql(const std::string& sql, int param_count);

// "\x" + hex of the bytes: bytea in text format.
std::string bytea_param(const std::string& bytes);
// Text-format PostgreSQL array literal of plain tokens, e.g. {"a","b"}.
std::string text_array_param(const std::vector<std::string>& items);

}  // namespace corebank::httpd
