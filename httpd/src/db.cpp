// db.cpp: libpq plumbing. Parameterised statements only: no SQL text is ever
// built from request data.
#include "db.hpp"

#include <libpq-fe.h>

#include <cassert>
#include <chrono>
#include <memory>

#include "core/crypto.hpp"
#include "log.hpp"

namespace corebank::httpd {

namespace {

struct ResultDeleter { void operator()(PGresult* r) const noexcept { PQclear(r); } };
using ResultPtr = std::unique_ptr<PGresult, ResultDeleter>;

// libpq "options" value: -c name=value pairs; spaces and backslashes escaped.
std::string options_value(const std::vector<std::pair<std::string, std::string>>& settings) {
    std::string out;
    for (const auto& [name, value] : settings) {
        if (!out.empty()) out.push_back(' ');
        out += "-c " + name + "=";
        for (char c : value) {
            if (c == ' ' || c == '\\') out.push_back('\\');
            out.push_back(c);
        }
    }
    return out;
}

const char* field_or_empty(const PGresult* result, int field) {
    const char* value = PQresultErrorField(result, field);
    return value != nullptr ? value : "";
}

}  // namespace

const std::optional<std::string>& QueryResult::scalar() const {
    if (rows.size() != 1 || rows.front().size() != 1)
        throw DbError("XX000", "expected exactly one value from the database", "");
    return rows.front().front();
}

Db::Db(std::string url, std::vector<std::pair<std::string, std::string>> settings)
    : url_(std::move(url)), settings_(std::move(settings)) {}

Db::~Db() { disconnect(); }

void Db::disconnect() noexcept {
    if (conn_ != nullptr) PQfinish(conn_);
    conn_ = nullptr;
    prepared_.clear();
}

void Db::ensure_connected() {
    if (conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK) return;
    disconnect();
    const std::string options = options_value(settings_);
    const char* keys[] = {"dbname", "options", "application_name", "connect_timeout", nullptr};
    const char* values[] = {url_.c_str(), options.c_str(), "corebankd", "3", nullptr};
    // expand_dbname=1: the first "dbname" may be a whole connection string or URI.
    conn_ = PQconnectdbParams(keys, values, 1);
    if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) {
        std::string why = conn_ != nullptr ? PQerrorMessage(conn_) : "out of memory";
        disconnect();
        throw DbUnavailable("cannot connect to the database: " + why);
    }
}

QueryResult Db::take_result(void* raw) {
    ResultPtr result(static_cast<PGresult*>(raw));
    if (!result || PQstatus(conn_) != CONNECTION_OK) {
        std::string why = PQerrorMessage(conn_);
        disconnect();
        throw DbUnavailable("database connection lost: " + why);
    }
    const ExecStatusType status = PQresultStatus(result.get());
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
        std::string sqlstate = field_or_empty(result.get(), PG_DIAG_SQLSTATE);
        std::string message = field_or_empty(result.get(), PG_DIAG_MESSAGE_PRIMARY);
        std::string detail = field_or_empty(result.get(), PG_DIAG_MESSAGE_DETAIL);
        // Admin shutdown / crash recovery / connection failure classes: the server is away.
        // An error without a SQLSTATE comes from libpq itself, not the server:
        // the connection is gone, though after an immediate shutdown the
        // status still says CONNECTION_OK until the next call.
        if (sqlstate.empty() || sqlstate.rfind("57P", 0) == 0 || sqlstate.rfind("08", 0) == 0) {
            const std::string why = message.empty() ? std::string(PQresultErrorMessage(result.get())) : message;
            disconnect();
            throw DbUnavailable("database unavailable: " + why);
        }
        throw DbError(sqlstate, message, detail);
    }
    QueryResult out;
    const int rows = PQntuples(result.get());
    const int columns = PQnfields(result.get());
    out.rows.reserve(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r) {
        std::vector<std::optional<std::string>> row;
        row.reserve(static_cast<std::size_t>(columns));
        for (int c = 0; c < columns; ++c) {
            if (PQgetisnull(result.get(), r, c)) row.emplace_back(std::nullopt);
            else row.emplace_back(std::string(PQgetvalue(result.get(), r, c),
                                              static_cast<std::size_t>(PQgetlength(result.get(), r, c))));
        }
        out.rows.push_back(std::move(row));
    }
    return out;
}

namespace {

std::vector<const char*> param_pointers(const std::vector<Param>& params) {
    std::vector<const char*> out;
    out.reserve(params.size());
    for (const auto& p : params) out.push_back(p ? p->c_str() : nullptr);
    return out;
}

}  // namespace

std::string branch_scoped_sql(const std::string& sql, int param_count) {
    return sql + " FROM corebank.actor_scope_set($" + std::to_string(param_count + 1) + "::uuid)";
}

Statement Db::scoped(const Statement& statement) {
    auto found = scoped_statements_.find(&statement);
    if (found == scoped_statements_.end()) {
        ScopedStatement variant{std::string(statement.name) + "@scoped",
                                branch_scoped_sql(statement.sql, statement.param_count)};
        found = scoped_statements_.emplace(&statement, std::move(variant)).first;
    }
    return Statement{found->second.name.c_str(), found->second.sql.c_str(), statement.param_count + 1, true};
}

QueryResult Db::exec(const Statement& statement, const std::vector<Param>& params) {
    if (!scope_actor_ || !statement.branch_scoped) return exec_prepared(statement, params);
    std::vector<Param> with_actor = params;
    with_actor.push_back(*scope_actor_);
    return exec_prepared(scoped(statement), with_actor);
}

QueryResult Db::exec_prepared(const Statement& statement, const std::vector<Param>& params) {
    assert(static_cast<int>(params.size()) == statement.param_count);
    ensure_connected();
    if (prepared_.count(statement.name) == 0) {
        ResultPtr prepared(PQprepare(conn_, statement.name, statement.sql, statement.param_count, nullptr));
        take_result(prepared.release());
        prepared_.insert(statement.name);
    }
    const auto values = param_pointers(params);
    return take_result(PQexecPrepared(conn_, statement.name, statement.param_count, values.data(), nullptr, nullptr, 0));
}

namespace {

std::int64_t steady_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

bool ReplicaHealth::should_try() const { return steady_now_ms() >= retry_at_ms_.load(std::memory_order_relaxed); }

void ReplicaHealth::succeeded() {
    if (failing_.load(std::memory_order_relaxed) && failing_.exchange(false))
        log_info("read replica answers again; reads go to it");
}

void ReplicaHealth::failed(const std::string& why) {
    retry_at_ms_.store(steady_now_ms() + retry_after_ms, std::memory_order_relaxed);
    if (!failing_.exchange(true))
        log_error("read replica unavailable; reads use the primary until it answers", {{"error", why}});
}

void Db::attach_replica(std::unique_ptr<Db> replica, std::shared_ptr<ReplicaHealth> health) {
    assert(replica && health);
    replica_ = std::move(replica);
    replica_health_ = std::move(health);
}

QueryResult Db::exec_read(const Statement& statement, const std::vector<Param>& params) {
    if (replica_ && replica_health_->should_try()) {
        // Two tries: a connection opened before a restart of the replica fails
        // on its first use, and only a new one tells whether the replica is back.
        for (int attempt = 0; attempt < 2; ++attempt) {
            const bool had_connection = replica_->conn_ != nullptr;
            try {
                replica_->scope_to(scope_actor_);  // the replica's call is scoped as this one would be
                QueryResult result = replica_->exec(statement, params);
                replica_health_->succeeded();
                return result;
            } catch (const DbUnavailable& e) {
                if (had_connection && attempt == 0) continue;
                replica_health_->failed(e.what());
                break;
            } catch (const DbError& e) {
                replica_health_->succeeded();  // it answered
                // A standby cancels a query whose rows replay is about to remove
                // (recovery conflict); the primary has no such conflict. Every
                // other error (404, validation) is the answer.
                if (e.sqlstate != "40001") throw;
                break;
            }
        }
    }
    return exec(statement, params);
}

QueryResult Db::exec_with_timeout(const Statement& statement, const std::vector<Param>& params, int timeout_ms) {
    assert(timeout_ms > 0);
    exec_once("SELECT set_config('statement_timeout', $1, false)", {std::to_string(timeout_ms)});
    // RESET returns to the value the connection was opened with (its options).
    const auto restore = [this]() noexcept {
        try {
            exec_once("RESET statement_timeout", {});
        } catch (...) {
            disconnect();  // the next call reconnects with the configured value
        }
    };
    try {
        QueryResult result = exec(statement, params);
        restore();
        return result;
    } catch (const DbUnavailable&) {
        throw;  // the connection is gone; a new one starts from its settings
    } catch (...) {
        restore();
        throw;
    }
}

QueryResult Db::exec_once(const std::string& sql, const std::vector<Param>& params) {
    ensure_connected();
    const auto values = param_pointers(params);
    return take_result(PQexecParams(conn_, sql.c_str(), static_cast<int>(params.size()), nullptr, values.data(),
                                    nullptr, nullptr, 0));
}

std::string bytea_param(const std::string& bytes) { return "\\x" + core::hex_encode(bytes); }

std::string text_array_param(const std::vector<std::string>& items) {
    std::string out = "{";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out.push_back(',');
        out.push_back('"');
        for (char c : items[i]) {
            if (c == '"' || c == '\\') out.push_back('\\');
            out.push_back(c);
        }
        out.push_back('"');
    }
    out.push_back('}');
    return out;
}

}  // namespace corebank::httpd
