// db.hpp: one libpq connection with lazily prepared statements.
//
// Each worker thread owns one Db (no sharing, no locks). Parameters and
// results travel in text format; bytea goes as "\x<hex>". Errors surface as
// DbError (with the SQLSTATE, for the one mapping table in db_errors.cpp) or
// DbUnavailable (the server is away; the next call reconnects by itself).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

typedef struct pg_conn PGconn;

namespace corebank::httpd {

struct Statement {
    const char* name;  // unique per statement; prepared once per connection
    const char* sql;
    int param_count;
};

using Param = std::optional<std::string>;  // nullopt is SQL NULL

struct DbError : std::runtime_error {
    std::string sqlstate;
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

class Db {
public:
    // settings: GUCs applied at connect time (e.g. corebank.issuer).
    Db(std::string url, std::vector<std::pair<std::string, std::string>> settings);
    ~Db();
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;

    QueryResult exec(const Statement& statement, const std::vector<Param>& params);
    // Runs a statement that is not prepared (admin tools, health checks).
    QueryResult exec_once(const std::string& sql, const std::vector<Param>& params);
    void disconnect() noexcept;

private:
    void ensure_connected();
    QueryResult take_result(void* result);

    std::string url_;
    std::vector<std::pair<std::string, std::string>> settings_;
    PGconn* conn_ = nullptr;
    std::unordered_set<std::string> prepared_;
};

// "\x" + hex of the bytes: bytea in text format.
std::string bytea_param(const std::string& bytes);
// Text-format PostgreSQL array literal of plain tokens, e.g. {"a","b"}.
std::string text_array_param(const std::vector<std::string>& items);

}  // namespace corebank::httpd
