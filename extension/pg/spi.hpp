// spi.hpp: a small, typed front end to SPI for the extension's queries.
//
// Design:
//   - connect()/finish() are explicit, not RAII. If anything throws between
//     them, the SQL function fails and the transaction (or subtransaction)
//     abort cleans the SPI connection up; a destructor calling SPI_finish
//     during unwinding would instead run PostgreSQL code after an error.
//   - Statements are static strings and are planned once per backend:
//     SPI_prepare + SPI_keepplan, cached by the address of the SQL text. The
//     text is never built at run time; every value is a parameter ($1, $2..),
//     so input can never become SQL.
//   - Results are read from the last execute() with typed getters that copy
//     into C++ values (text, bool, integers, uuid, text[]), or, for a jsonb
//     the SQL function returns, copied into the caller's memory context with
//     SPI_datumTransfer before finish() frees SPI's memory.
//   - Argument Datums are built in CurrentMemoryContext (SPI's procedure
//     context once connected), or, while an ArgContext is alive, in the
//     context it names: a loop of many statements (event ingestion) resets
//     that context per row instead of keeping every row's arguments until
//     finish(). free_result() likewise releases one statement's tuple table.
//   - Every PostgreSQL call goes through pg_guard.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pg/postgres.hpp"
#include "pg/values.hpp"

namespace corebank::pg::spi {

// One statement parameter: a typed, possibly NULL value owned by C++ until the
// execute() call converts it to a Datum in SPI's memory.
class Arg {
public:
    static Arg text(std::optional<std::string_view> value);
    static Arg bytea(std::optional<std::string_view> value);
    static Arg jsonb(std::optional<std::string_view> json_text);
    // A jsonb Datum the caller already holds (a function argument), passed
    // by reference: nothing of it is copied or parsed again. It must stay
    // valid until execute() returns.
    static Arg jsonb_datum(Datum value);
    static Arg uuid(std::optional<Uuid> value);
    static Arg boolean(std::optional<bool> value);
    static Arg int4(std::optional<std::int32_t> value);
    static Arg int8(std::optional<std::int64_t> value);
    static Arg text_array(std::optional<std::vector<std::string>> values);
    // Long arrays (up to 65,536 values; text[] and bigint[]): a column of a
    // set-based write read with unnest(), or a list of keys (`= ANY ($1::uuid[])`).
    static Arg text_column(std::vector<std::string> values);
    static Arg int8_column(std::vector<std::int64_t> values);
    static Arg int4_column(std::vector<std::int32_t> values);
    // A list of keys as uuid[] (up to 65,536), each parsed once here by
    // uuid_in (its error for a bad one). Not text[] cast in the statement:
    // `= ANY ($1::uuid[])` over a text[] parameter is evaluated per row a
    // scan visits, parsing every element again for each (under the postings
    // benchmark that was a tenth of the database's CPU).
    static Arg uuid_column(std::vector<std::string> values);

    Oid type() const noexcept { return type_; }
    bool is_null() const noexcept { return is_null_; }
    // Builds the Datum in CurrentMemoryContext (PostgreSQL calls: guarded).
    Datum to_datum() const;

private:
    explicit Arg(Oid type) : type_(type) {}
    // The scalar kinds: a value held as bytes (text, bytea, jsonb) or as an
    // integer (int4, int8, bool); nullopt is SQL NULL.
    static Arg of_bytes(Oid type, std::optional<std::string_view> value);
    static Arg of_integer(Oid type, std::optional<std::int64_t> value);
    // The arrays whose elements are held as text (text[], and uuid[] parsed
    // in to_datum), and the integer arrays (bigint[], int4[]), held as int64
    // either way.
    static Arg of_text_column(Oid type, std::vector<std::string> values);
    static Arg of_integer_column(Oid type, std::vector<std::int64_t> values);

    Oid type_;
    bool is_null_ = true;
    std::string bytes_;                  // text, bytea, jsonb (as JSON text)
    std::vector<std::string> elements_;  // text[], uuid[] (as text)
    std::vector<std::int64_t> integers_; // bigint[], int4[]
    Uuid uuid_{};
    std::int64_t integer_ = 0;           // int4, int8, bool
    Datum datum_ = 0;                    // jsonb_datum: the caller's value
    bool by_reference_ = false;
};

// While alive, execute() builds argument Datums in `context` (see the
// header comment); scopes nest.
class ArgContext {
public:
    explicit ArgContext(MemoryContext context) noexcept;
    ~ArgContext();
    ArgContext(const ArgContext&) = delete;
    ArgContext& operator=(const ArgContext&) = delete;

private:
    MemoryContext previous_;
};

void connect();
// connect(), then makes a statement trigger's transition tables (REFERENCING
// NEW TABLE AS ...) visible to the statements under their names.
void connect_with_transition_tables(TriggerData* trigger);
void finish();

// Executes a statement with its parameters and returns the number of rows it
// processed. `sql` must have static storage duration: its address keys the
// plan cache. The same statement must always be run with the same parameter
// types (checked).
std::uint64_t execute(const char* sql, std::initializer_list<Arg> args);

// The same with a generic plan from the first call on. For the hot
// statements whose parameters are keys or arrays of keys: PostgreSQL's plan
// cache would otherwise plan them anew on every call when a custom plan for
// the values at hand looks cheaper (an array parameter does that), which
// costs a posting more than running them. Not for statements whose best
// plan depends on the values (a LIMIT, a range): those keep custom plans.
// The plan is made with sequential scans priced out (enable_seqscan off
// while it is planned, and planned again after an invalidation): a generic
// plan made while a table is small scans it whole, and keeps doing so as
// the table grows (the journal, the idempotency keys) or bloats between
// vacuums (accounts, chain heads); a key probe costs the same at any size.
// Only the statement's own plan: what it runs (triggers, functions) plans
// with the session's settings.
std::uint64_t execute_generic(const char* sql, std::initializer_list<Arg> args);

// Releases the tuple table of the last execute(), if any (for loops that
// run many statements in one connection; finish() frees the rest).
void free_result();

// Getters over the rows of the last execute(); row < rows and column is
// 1-based, as in SPI. A NULL value is std::nullopt.
std::optional<std::string> get_text(std::uint64_t row, int column);   // any type, as text
std::optional<std::string> get_bytea(std::uint64_t row, int column);
std::optional<bool> get_bool(std::uint64_t row, int column);
std::optional<std::int64_t> get_int(std::uint64_t row, int column);  // int2, int4, int8
std::optional<Uuid> get_uuid(std::uint64_t row, int column);
std::optional<std::vector<std::string>> get_text_array(std::uint64_t row, int column);

// Copies a jsonb value into the memory context that was current at connect(),
// so it survives finish() and can be returned. *is_null reports SQL NULL.
Datum get_jsonb_for_return(std::uint64_t row, int column, bool* is_null);
// The same for a value that cannot be NULL (an aggregate, a
// jsonb_build_object): NULL is an internal error.
Datum get_required_jsonb_for_return(std::uint64_t row, int column);

}  // namespace corebank::pg::spi
